// ndarray.item() with no arguments: the single element of a size-1 array.
#pragma once
#include "../array.hpp"

namespace tr {
namespace np {

template <class T, int N, int L> T item(const Array<T, N, L> &a) {
    if (a.size() != 1) raise(TR_ERR_VALUE, "can only convert an array of size 1 to a Python scalar");
    return a.data[0];
}

// Real and imaginary parts of a complex array as strided views.
template <class T, int N, int L> Array<T, N, A> real_view(const Array<complex_t<T>, N, L> &a) {
    Array<T, N, A> v;
    v.data = reinterpret_cast<T *>(a.data);
    for (int k = 0; k < N; ++k) v.shape[k] = a.shape[k], v.strides[k] = a.stride(k) * 2;
    v.owner = a.owner;
    return v;
}
template <class T, int N, int L> Array<T, N, A> imag_view(const Array<complex_t<T>, N, L> &a) {
    Array<T, N, A> v = real_view(a);
    v.data += 1;
    return v;
}

}  // namespace np
}  // namespace tr
