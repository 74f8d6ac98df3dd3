// Host <-> device copies around one device loop, shared by the CUDA and
// Ascend backends.  Before the loop every array the body uses is copied to
// the device (the byte span its view covers; overlapping views of one
// buffer share one device copy); after it, the spans the body writes are
// copied back.  `Device` supplies the toolkit calls:
//   static const char *name; static void ready();
//   static char *alloc(int64_t); static void release(char *);
//   static void to_device(char *dev, const char *host, int64_t);
//   static void to_host(char *host, const char *dev, int64_t);
#pragma once
#include "parallel.hpp"

#ifndef TR_MAX_STAGED
#define TR_MAX_STAGED 64
#endif

namespace tr {
namespace par {

// What a kernel struct holds for a value the body shares: arrays as the
// device views Staging::view makes, everything else as it is.
template <class X> struct device_arg { using type = X; };
template <class T, int N, int L> struct device_arg<Array<T, N, L>> { using type = DeviceArray<T, N, L>; };
template <class X> using arg_t = typename device_arg<X>::type;

template <class Device> struct StagingFor {
    struct Span {
        char *lo;
        int64_t nbytes;
        char *dev;
        bool write;
    };
    Span spans[TR_MAX_STAGED];
    int n = 0;

    template <class X> void add(const X &, bool) {}  // scalars travel in the kernel's arguments
    template <class T, int N, int L> void add(const Array<T, N, L> &a, bool write) {
        int64_t lo = 0, hi = 0;
        bool empty = false;
        for (int k = 0; k < N; ++k) {
            if (a.shape[k] == 0) empty = true;
            int64_t ext = (a.shape[k] - 1) * a.stride(k);
            if (ext < 0) lo += ext; else hi += ext;
        }
        if (empty) {  // nothing to copy; the device copy still has an element 0 (see wrap_index)
            insert(reinterpret_cast<char *>(a.data), 0, write);
            return;
        }
        insert(reinterpret_cast<char *>(a.data + lo), (hi - lo + 1) * int64_t(sizeof(T)), write);
    }
    void insert(char *lo, int64_t nbytes, bool write) {
        for (int i = 0; i < n; ++i) {  // overlapping views share one device copy
            Span &s = spans[i];
            if (lo <= s.lo + s.nbytes && s.lo <= lo + nbytes) {
                char *a = lo < s.lo ? lo : s.lo;
                char *b = lo + nbytes > s.lo + s.nbytes ? lo + nbytes : s.lo + s.nbytes;
                bool w = write || s.write;
                spans[i] = spans[--n];
                insert(a, int64_t(b - a), w);
                return;
            }
        }
        if (n == TR_MAX_STAGED)
            raise(TR_ERR_RUNTIME, "backend='%s': a prange loop uses more than %d arrays", Device::name, n);
        spans[n++] = Span{lo, nbytes, nullptr, write};
    }
    void upload() {
        Device::ready();
        for (int i = 0; i < n; ++i) {
            spans[i].dev = Device::alloc(spans[i].nbytes > 64 ? spans[i].nbytes : 64);
            if (spans[i].nbytes) Device::to_device(spans[i].dev, spans[i].lo, spans[i].nbytes);
        }
    }
    template <class X> const X &view(const X &x) { return x; }
    template <class T, int N, int L> DeviceArray<T, N, L> view(const Array<T, N, L> &a) {
        DeviceArray<T, N, L> d;
        char *p = reinterpret_cast<char *>(a.data);
        for (int i = 0; i < n; ++i)
            if (spans[i].lo <= p && p <= spans[i].lo + spans[i].nbytes) {
                d.data = reinterpret_cast<T *>(spans[i].dev + (p - spans[i].lo));
                break;
            }
        for (int k = 0; k < N; ++k) d.shape[k] = a.shape[k], d.strides[k] = a.stride(k);
        return d;
    }
    void download() {
        for (int i = 0; i < n; ++i)
            if (spans[i].write && spans[i].nbytes) Device::to_host(spans[i].lo, spans[i].dev, spans[i].nbytes);
    }
    ~StagingFor() {
        for (int i = 0; i < n; ++i)
            if (spans[i].dev) Device::release(spans[i].dev);
    }
};

}  // namespace par
}  // namespace tr
