// ccsim device kernels: one persistent CTA per (rank, channel) walks an encoded step list and moves
// data through NCCL_STEPS slot buffers that live in the RECEIVER's memory (written over peer access).
//
// The design follows NCCL's primitives (src/device/prims_simple.h, prims_ll.h, prims_ll128.h and
// src/include/device.h in NVIDIA/nccl); the code is ccsim's own.
//
//  * Simple: the sender waits for a credit (head, written by the receiver into the SENDER's memory),
//    writes sliceSteps slots of bulk data into the receiver's buffer, fences (__threadfence_system),
//    then publishes tail = step (st.release.sys) in the RECEIVER's memory; the receiver spins on its
//    local tail, reads the slot, and returns the credit by writing head in the sender's memory.
//  * LL: 16-byte FIFO lines {data0, flag, data1, flag} (4 B data + 4 B flag twice); flag = step + 1
//    (NCCL_LL_FLAG); the receiver polls each line until both flags match. Data efficiency 50 %.
//  * LL128: 128-byte lines written by 8 lanes of a warp with 16-byte stores; the last 8 bytes of a line
//    are the flag (step + 1), the other 120 bytes data (NCCL_LL128_DATAELEMS = 15 of 16 u64).
//
// Step encoding (built by io.ccsim.gpu.DeviceProgram, STEP_WORDS int64 per step):
//   [0] flags: bit0 READ_SRC (local input), bit1 WRITE_DST (local output), bit2 READ_DST (the output is
//       also an input: out = in (+) out, used by microbenchmarks), bit3 PRE (apply the reduction's
//       pre-operator to the local input: avg on floats), bit4 POST (post-operator: avg on integers);
//   [1] nRecv  [2..4] receive connection indices (into the connection table)
//   [5] nSend  [6..8] send connection indices
//   [9] srcOffset bytes  [10] dstOffset bytes  [11] bytes | slots << 32 (slots = NCCL steps this slice
//       occupies on each of its connections; a zero-byte slice still posts its slots).
// A slice starting at slot i of a connection occupies slots i..i+slots-1 contiguously: buffers carry
// (NCCL_STEPS + maxSlots - 1) slots so that this never wraps.
// Connection table (4 x u64 per connection): {slot buffer base, tail ptr, head ptr, step counter ptr}.
//   For a send connection buf/tail are the peer's, head and counter are local; for a receive
//   connection buf/tail/counter are local, head is the peer's.
//
// Kernels are named ccsim_<proto>_<dtype>_<op>, e.g. ccsim_simple_f32_sum, with parameters
//   (const long long* tasks, const char* src, char* dst, long long slotBytes /* wire bytes of one slot */,
//    int nRanks /* for avg */); one CTA per (channel, lane) task; blockDim.x a multiple of 32 (LL128 needs
// whole warps).

#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <stdint.h>

#define NCCL_STEPS 8
#define STEP_WORDS 12
#define CONN_WORDS 4
#define MAXP 3
#define F_READ_SRC 1
#define F_WRITE_DST 2
#define F_READ_DST 4
#define F_PRE 8
#define F_POST 16

enum { OP_SUM = 0, OP_PROD = 1, OP_MAX = 2, OP_MIN = 3, OP_AVG = 4 };
enum { P_SIMPLE = 0, P_LL = 1, P_LL128 = 2 };

// ---------------------------------------------------------------- element operations
// Semantics match ccsim's CPU reference (io.ccsim.algorithms.data.Reduction), which follows NCCL
// (src/device/reduce_kernel.h, src/enqueue.cc hostToDevRedOp): integers wrap; avg on integers is a
// wrapping sum then one truncating division by nRanks (ncclDevSumPostDiv); avg on floats multiplies
// each input by s = T(float(1.0 / nRanks)) first (ncclDevPreMulSum); half/bfloat16 round every add and
// multiply to the type (__hadd_rn/__hmul_rn: the _rn forms are never contracted into an FMA); fp8
// computes in half and converts back with saturation; max/min of floats return the non-NaN operand and
// order -0 below +0.

__device__ __forceinline__ bool fpickMax(double a, double b) {
  if (b != b) return true;
  if (a != a) return false;
  if (a == b) return !signbit(a) || signbit(b);
  return a > b;
}
__device__ __forceinline__ bool fpickMin(double a, double b) {
  if (b != b) return true;
  if (a != a) return false;
  if (a == b) return signbit(a) || !signbit(b);
  return a < b;
}

template <typename T, typename U> struct IntOps {
  __device__ static T sum(T a, T b) { return (T)((U)a + (U)b); }
  __device__ static T prod(T a, T b) { return (T)((U)a * (U)b); }
  __device__ static T mx(T a, T b) { return a >= b ? a : b; }
  __device__ static T mn(T a, T b) { return a <= b ? a : b; }
  __device__ static T pre(T a, int) { return a; }
  __device__ static T post(T a, int n) { return (T)(a / (T)n); }
};
template <typename T> struct Ops;
template <> struct Ops<int8_t> : IntOps<int8_t, uint8_t> {};
template <> struct Ops<uint8_t> : IntOps<uint8_t, uint8_t> {};
template <> struct Ops<int32_t> : IntOps<int32_t, uint32_t> {};
template <> struct Ops<uint32_t> : IntOps<uint32_t, uint32_t> {};
template <> struct Ops<long long> : IntOps<long long, unsigned long long> {};
template <> struct Ops<unsigned long long> : IntOps<unsigned long long, unsigned long long> {};
template <> struct Ops<float> {
  __device__ static float sum(float a, float b) { return __fadd_rn(a, b); }
  __device__ static float prod(float a, float b) { return __fmul_rn(a, b); }
  __device__ static float mx(float a, float b) { return fpickMax(a, b) ? a : b; }
  __device__ static float mn(float a, float b) { return fpickMin(a, b) ? a : b; }
  __device__ static float pre(float a, int n) { return __fmul_rn(a, (float)(1.0 / (double)n)); }
  __device__ static float post(float a, int) { return a; }
};
template <> struct Ops<double> {
  __device__ static double sum(double a, double b) { return __dadd_rn(a, b); }
  __device__ static double prod(double a, double b) { return __dmul_rn(a, b); }
  __device__ static double mx(double a, double b) { return fpickMax(a, b) ? a : b; }
  __device__ static double mn(double a, double b) { return fpickMin(a, b) ? a : b; }
  __device__ static double pre(double a, int n) { return __dmul_rn(a, 1.0 / (double)n); }
  __device__ static double post(double a, int) { return a; }
};
template <> struct Ops<__half> {
  __device__ static __half sum(__half a, __half b) { return __hadd_rn(a, b); }
  __device__ static __half prod(__half a, __half b) { return __hmul_rn(a, b); }
  __device__ static __half mx(__half a, __half b) { return fpickMax(__half2float(a), __half2float(b)) ? a : b; }
  __device__ static __half mn(__half a, __half b) { return fpickMin(__half2float(a), __half2float(b)) ? a : b; }
  __device__ static __half pre(__half a, int n) { return __hmul_rn(a, __float2half_rn((float)(1.0 / (double)n))); }
  __device__ static __half post(__half a, int) { return a; }
};
template <> struct Ops<__nv_bfloat16> {
  typedef __nv_bfloat16 B;
  __device__ static B sum(B a, B b) { return __hadd_rn(a, b); }
  __device__ static B prod(B a, B b) { return __hmul_rn(a, b); }
  __device__ static B mx(B a, B b) { return fpickMax(__bfloat162float(a), __bfloat162float(b)) ? a : b; }
  __device__ static B mn(B a, B b) { return fpickMin(__bfloat162float(a), __bfloat162float(b)) ? a : b; }
  __device__ static B pre(B a, int n) { return __hmul_rn(a, __float2bfloat16_rn((float)(1.0 / (double)n))); }
  __device__ static B post(B a, int) { return a; }
};
template <typename F> struct Fp8Ops {
  __device__ static __half h(F x) { return (__half)x; }
  __device__ static F sum(F a, F b) { return F(__hadd_rn(h(a), h(b))); }
  __device__ static F prod(F a, F b) { return F(__hmul_rn(h(a), h(b))); }
  __device__ static F mx(F a, F b) { return fpickMax((float)a, (float)b) ? a : b; }
  __device__ static F mn(F a, F b) { return fpickMin((float)a, (float)b) ? a : b; }
  __device__ static F pre(F a, int n) { return F(__hmul_rn(h(a), h(F((float)(1.0 / (double)n))))); }
  __device__ static F post(F a, int) { return a; }
};
template <> struct Ops<__nv_fp8_e4m3> : Fp8Ops<__nv_fp8_e4m3> {};
template <> struct Ops<__nv_fp8_e5m2> : Fp8Ops<__nv_fp8_e5m2> {};

template <typename T, int OP> __device__ __forceinline__ T apply1(T a, T b) {
  if (OP == OP_SUM || OP == OP_AVG) return Ops<T>::sum(a, b);
  if (OP == OP_PROD) return Ops<T>::prod(a, b);
  if (OP == OP_MAX) return Ops<T>::mx(a, b);
  return Ops<T>::mn(a, b);
}

// Element-wise over 8-byte packs.
template <typename T> union Pack8 { uint64_t u; T t[8 / sizeof(T)]; __device__ Pack8() {} };
template <typename T, int OP> __device__ __forceinline__ uint64_t red8(uint64_t a, uint64_t b) {
  Pack8<T> x, y; x.u = a; y.u = b;
#pragma unroll
  for (int i = 0; i < (int)(8 / sizeof(T)); i++) x.t[i] = apply1<T, OP>(x.t[i], y.t[i]);
  return x.u;
}
template <typename T> __device__ __forceinline__ uint64_t pre8(uint64_t a, int n) {
  Pack8<T> x; x.u = a;
#pragma unroll
  for (int i = 0; i < (int)(8 / sizeof(T)); i++) x.t[i] = Ops<T>::pre(x.t[i], n);
  return x.u;
}
template <typename T> __device__ __forceinline__ uint64_t post8(uint64_t a, int n) {
  Pack8<T> x; x.u = a;
#pragma unroll
  for (int i = 0; i < (int)(8 / sizeof(T)); i++) x.t[i] = Ops<T>::post(x.t[i], n);
  return x.u;
}

// ---------------------------------------------------------------- memory helpers
__device__ __forceinline__ uint64_t ld_acquire_sys(const uint64_t* p) {
  uint64_t v; asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ uint64_t ld_volatile_u64(const uint64_t* p) {
  uint64_t v; asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ void st_release_sys(uint64_t* p, uint64_t v) {
  asm volatile("st.release.sys.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void st_relaxed_sys(uint64_t* p, uint64_t v) {
  asm volatile("st.relaxed.sys.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ uint4 ld_cg16(const void* p) {
  uint4 v; asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ uint4 ld_volatile16(const void* p) {
  uint4 v; asm volatile("ld.volatile.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ void st_volatile16(void* p, uint4 v) {
  asm volatile("st.volatile.global.v4.u32 [%0], {%1,%2,%3,%4};" :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}
__device__ __forceinline__ void ld_volatile_2u64(const void* p, uint64_t& a, uint64_t& b) {
  asm volatile("ld.volatile.global.v2.u64 {%0,%1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}
__device__ __forceinline__ void st_volatile_2u64(void* p, uint64_t a, uint64_t b) {
  asm volatile("st.volatile.global.v2.u64 [%0], {%1,%2};" :: "l"(p), "l"(a), "l"(b) : "memory");
}

// Loads/stores 8 bytes (or fewer, at the tail of a step) at any alignment.
__device__ __forceinline__ uint64_t load8(const char* p, int valid) {
  if (valid >= 8 && ((uintptr_t)p & 7) == 0) return *(const uint64_t*)p;
  uint64_t v = 0;
  for (int i = 0; i < valid && i < 8; i++) v |= (uint64_t)(unsigned char)p[i] << (8 * i);
  return v;
}
__device__ __forceinline__ void store8(char* p, uint64_t v, int valid) {
  if (valid >= 8 && ((uintptr_t)p & 7) == 0) { *(uint64_t*)p = v; return; }
  for (int i = 0; i < valid && i < 8; i++) p[i] = (char)(v >> (8 * i));
}

struct Conn { char* buf; uint64_t* tail; uint64_t* head; uint64_t* counter; };

#define MAX_CONNS 64

__device__ __forceinline__ uint64_t* connCounter(const uint64_t* conns, int i) {
  return (uint64_t*)conns[(long long)i * CONN_WORDS + 3];
}

__device__ __forceinline__ Conn loadConn(const uint64_t* conns, long long i) {
  Conn c;
  c.buf = (char*)conns[i * CONN_WORDS + 0];
  c.tail = (uint64_t*)conns[i * CONN_WORDS + 1];
  c.head = (uint64_t*)conns[i * CONN_WORDS + 2];
  c.counter = (uint64_t*)conns[i * CONN_WORDS + 3];
  return c;
}

// Element load that bypasses L1 (slots are rewritten by peers); used by the unaligned fallback only.
template <typename T> __device__ __forceinline__ T loadT(const char* p) {
  union { T t; unsigned char b[sizeof(T)]; } u;
#pragma unroll
  for (int i = 0; i < (int)sizeof(T); i++) u.b[i] = ((const volatile unsigned char*)p)[i];
  return u.t;
}

__device__ __forceinline__ uint64_t lo64(uint4 v) { return ((uint64_t)v.y << 32) | v.x; }
__device__ __forceinline__ uint64_t hi64(uint4 v) { return ((uint64_t)v.w << 32) | v.z; }
__device__ __forceinline__ uint4 mk16(uint64_t a, uint64_t b) {
  return make_uint4((uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b, (uint32_t)(b >> 32));
}

// Applies the reduction's pre-operator to an input pack (avg on floats) when asked.
template <typename T, int OP> __device__ __forceinline__ uint64_t maybePre(uint64_t v, bool pre, int n) {
  return (OP == OP_AVG && pre) ? pre8<T>(v, n) : v;
}
template <typename T, int OP> __device__ __forceinline__ uint64_t maybePost(uint64_t v, bool post, int n) {
  return (OP == OP_AVG && post) ? post8<T>(v, n) : v;
}

// ---------------------------------------------------------------- Simple: bulk copy/reduce of one slice
// Inputs in[0..nIn): in[0] is the local input when readSrc (pre-operator applies to it), further local
// inputs or receive slots follow; slots are read with ld.cg so that no stale L1 line survives from the
// slot's previous use. Outputs out[0..nOut): the local output and/or peers' slots.
template <typename T, int OP>
__device__ __forceinline__ void simpleMove(const char* const* in, int nIn, bool preFirst, char* const* out, int nOut,
                                           long long bytes, bool post, int nRanks) {
  const int tid = threadIdx.x, nt = blockDim.x;
  bool aligned = (bytes & 15) == 0;
  for (int k = 0; k < nIn; k++) aligned &= (((uintptr_t)in[k]) & 15) == 0;
  for (int k = 0; k < nOut; k++) aligned &= (((uintptr_t)out[k]) & 15) == 0;
  if (aligned) {
    const long long packs = bytes >> 4;
    const int U = 4;
    for (long long base = tid; base < packs; base += (long long)nt * U) {
      uint4 acc[U];
#pragma unroll
      for (int u = 0; u < U; u++) {
        long long i = base + (long long)u * nt;
        if (i < packs) {
          acc[u] = ld_cg16(in[0] + i * 16);
          if (OP == OP_AVG && preFirst)
            acc[u] = mk16(pre8<T>(lo64(acc[u]), nRanks), pre8<T>(hi64(acc[u]), nRanks));
        }
      }
#pragma unroll
      for (int k = 1; k < 2 + MAXP; k++) {
        if (k < nIn) {
          uint4 v[U];
#pragma unroll
          for (int u = 0; u < U; u++) {
            long long i = base + (long long)u * nt;
            if (i < packs) v[u] = ld_cg16(in[k] + i * 16);
          }
#pragma unroll
          for (int u = 0; u < U; u++)
            acc[u] = mk16(red8<T, OP>(lo64(acc[u]), lo64(v[u])), red8<T, OP>(hi64(acc[u]), hi64(v[u])));
        }
      }
      if (OP == OP_AVG && post) {
#pragma unroll
        for (int u = 0; u < U; u++) acc[u] = mk16(post8<T>(lo64(acc[u]), nRanks), post8<T>(hi64(acc[u]), nRanks));
      }
#pragma unroll
      for (int k = 0; k < 1 + MAXP; k++) {
        if (k < nOut) {
#pragma unroll
          for (int u = 0; u < U; u++) {
            long long i = base + (long long)u * nt;
            if (i < packs) *(uint4*)(out[k] + i * 16) = acc[u];
          }
        }
      }
    }
  } else {
    const long long n = bytes / (long long)sizeof(T);
    for (long long i = tid; i < n; i += nt) {
      T acc = loadT<T>(in[0] + i * sizeof(T));
      if (OP == OP_AVG && preFirst) acc = Ops<T>::pre(acc, nRanks);
      for (int k = 1; k < nIn; k++) acc = apply1<T, OP>(acc, loadT<T>(in[k] + i * sizeof(T)));
      if (OP == OP_AVG && post) acc = Ops<T>::post(acc, nRanks);
      for (int k = 0; k < nOut; k++) *(T*)(out[k] + i * sizeof(T)) = acc;
    }
  }
}

// ---------------------------------------------------------------- the kernel body
template <typename T, int OP, int PROTO>
__device__ void runSteps(const long long* __restrict__ steps, int nSteps, const uint64_t* __restrict__ conns,
                         int nConns, const char* src, char* dst, long long slotBytes, int nRanks) {
  __shared__ uint64_t s_counter[MAX_CONNS];
  const int tid = threadIdx.x;
  for (int i = tid; i < nConns; i += blockDim.x) s_counter[i] = *connCounter(conns, i);
  __syncthreads();

  for (int s = 0; s < nSteps; s++) {
    const long long* w = steps + (long long)s * STEP_WORDS;
    const int flags = (int)w[0];
    const int nRecv = (int)w[1], nSend = (int)w[5];
    const long long srcOff = w[9], dstOff = w[10];
    const long long bytes = w[11] & 0xffffffffLL;
    const int slots = (int)(w[11] >> 32);
    const bool pre = (flags & F_PRE) != 0, post = (flags & F_POST) != 0;
    int rIdx[MAXP], sIdx[MAXP];
#pragma unroll
    for (int k = 0; k < MAXP; k++) { rIdx[k] = (int)w[2 + k]; sIdx[k] = (int)w[6 + k]; }

    // ---- wait for data (Simple: tail) and for credits (every protocol: head)
    if (tid == 0) {
      if (PROTO == P_SIMPLE) {
        for (int k = 0; k < nRecv; k++) {
          Conn c = loadConn(conns, rIdx[k]);
          uint64_t want = s_counter[rIdx[k]] + slots;
          while (ld_acquire_sys(c.tail) < want) {}
        }
      }
      for (int k = 0; k < nSend; k++) {
        Conn c = loadConn(conns, sIdx[k]);
        uint64_t need = s_counter[sIdx[k]] + slots;  // slots [counter, need) must be free
        while (ld_volatile_u64(c.head) + NCCL_STEPS < need) {}
      }
    }
    __syncthreads();

    if (PROTO == P_SIMPLE) {
      const char* in[2 + MAXP]; char* out[1 + MAXP];
      int nIn = 0, nOut = 0;
      if (flags & F_READ_SRC) in[nIn++] = src + srcOff;
      if (flags & F_READ_DST) in[nIn++] = dst + dstOff;
      for (int k = 0; k < nRecv; k++) {
        Conn c = loadConn(conns, rIdx[k]);
        in[nIn++] = c.buf + (long long)(s_counter[rIdx[k]] % NCCL_STEPS) * slotBytes;
      }
      if (flags & F_WRITE_DST) out[nOut++] = dst + dstOff;
      for (int k = 0; k < nSend; k++) {
        Conn c = loadConn(conns, sIdx[k]);
        out[nOut++] = c.buf + (long long)(s_counter[sIdx[k]] % NCCL_STEPS) * slotBytes;
      }
      if (nIn > 0) simpleMove<T, OP>(in, nIn, (flags & F_READ_SRC) && pre, out, nOut, bytes, post, nRanks);
      __syncthreads();
      if (tid == 0) {
        if (nSend > 0) __threadfence_system();
        for (int k = 0; k < nSend; k++) {
          Conn c = loadConn(conns, sIdx[k]);
          st_release_sys(c.tail, s_counter[sIdx[k]] + slots);
        }
        for (int k = 0; k < nRecv; k++) {
          Conn c = loadConn(conns, rIdx[k]);
          st_relaxed_sys(c.head, s_counter[rIdx[k]] + slots);
        }
      }
    } else if (PROTO == P_LL) {
      // One 16-byte FIFO line carries 8 payload bytes; a thread handles whole lines.
      const long long lines = (bytes + 7) / 8;
      for (long long l = tid; l < lines; l += blockDim.x) {
        const int valid = (int)(bytes - l * 8 < 8 ? bytes - l * 8 : 8);
        uint64_t acc = 0; bool have = false;
        if (flags & F_READ_SRC) { acc = maybePre<T, OP>(load8(src + srcOff + l * 8, valid), pre, nRanks); have = true; }
        if (flags & F_READ_DST) {
          uint64_t v = load8(dst + dstOff + l * 8, valid);
          acc = have ? red8<T, OP>(acc, v) : v; have = true;
        }
        for (int k = 0; k < nRecv; k++) {
          Conn c = loadConn(conns, rIdx[k]);
          uint64_t step = s_counter[rIdx[k]];
          uint32_t flag = (uint32_t)(step + 1);
          const char* line = c.buf + (long long)(step % NCCL_STEPS) * slotBytes + l * 16;
          uint4 v;
          do { v = ld_volatile16(line); } while (v.y != flag || v.w != flag);
          uint64_t d = ((uint64_t)v.z << 32) | v.x;
          acc = have ? red8<T, OP>(acc, d) : d; have = true;
        }
        acc = maybePost<T, OP>(acc, post, nRanks);
        if (flags & F_WRITE_DST) store8(dst + dstOff + l * 8, acc, valid);
        for (int k = 0; k < nSend; k++) {
          Conn c = loadConn(conns, sIdx[k]);
          uint64_t step = s_counter[sIdx[k]];
          uint32_t flag = (uint32_t)(step + 1);
          char* line = c.buf + (long long)(step % NCCL_STEPS) * slotBytes + l * 16;
          st_volatile16(line, make_uint4((uint32_t)acc, flag, (uint32_t)(acc >> 32), flag));
        }
      }
      __syncthreads();
      if (tid == 0) {
        for (int k = 0; k < nRecv; k++) {
          Conn c = loadConn(conns, rIdx[k]);
          st_relaxed_sys(c.head, s_counter[rIdx[k]] + slots);
        }
      }
    } else {
      // LL128: groups of 8 lanes own a 128-byte line: lane j holds u64 words 2j and 2j+1; word 15
      // (lane 7's second) is the flag, the other 15 words carry 120 payload bytes.
      const int lane = tid & 31, warp = tid >> 5, nWarps = blockDim.x >> 5;
      const int sub = lane & 7, grp = lane >> 3;
      const long long lines = (bytes + 119) / 120;
      const long long linesPerRound = (long long)nWarps * 4;
      for (long long base = 0; base < lines; base += linesPerRound) {
        const long long l = base + warp * 4 + grp;
        const bool live = l < lines;
        uint64_t acc0 = 0, acc1 = 0; bool have = false;
        const long long d0 = l * 120 + sub * 16;  // payload byte of word 2*sub
        const int v0 = live ? (int)max(0LL, min(8LL, bytes - d0)) : 0;
        const int v1 = (live && sub != 7) ? (int)max(0LL, min(8LL, bytes - d0 - 8)) : 0;
        if (flags & F_READ_SRC) {
          acc0 = maybePre<T, OP>(load8(src + srcOff + d0, v0), pre, nRanks);
          acc1 = maybePre<T, OP>(load8(src + srcOff + d0 + 8, v1), pre, nRanks);
          have = true;
        }
        if (flags & F_READ_DST) {
          uint64_t b0 = load8(dst + dstOff + d0, v0), b1 = load8(dst + dstOff + d0 + 8, v1);
          if (have) { acc0 = red8<T, OP>(acc0, b0); acc1 = red8<T, OP>(acc1, b1); } else { acc0 = b0; acc1 = b1; }
          have = true;
        }
        for (int k = 0; k < nRecv; k++) {
          Conn c = loadConn(conns, rIdx[k]);
          uint64_t step = s_counter[rIdx[k]];
          uint64_t flag = step + 1;
          const char* line = c.buf + (long long)(step % NCCL_STEPS) * slotBytes + (live ? l : 0) * 128 + sub * 16;
          uint64_t x0 = 0, x1 = 0;
          if (live) {
            bool ok;
            do {
              ld_volatile_2u64(line, x0, x1);
              ok = __all_sync(__activemask(), sub != 7 || x1 == flag);
            } while (!ok);
          }
          if (have) { acc0 = red8<T, OP>(acc0, x0); if (sub != 7) acc1 = red8<T, OP>(acc1, x1); }
          else { acc0 = x0; acc1 = x1; }
          have = true;
        }
        acc0 = maybePost<T, OP>(acc0, post, nRanks);
        acc1 = maybePost<T, OP>(acc1, post, nRanks);
        if (flags & F_WRITE_DST) {
          store8(dst + dstOff + d0, acc0, v0);
          store8(dst + dstOff + d0 + 8, acc1, v1);
        }
        for (int k = 0; k < nSend; k++) {
          Conn c = loadConn(conns, sIdx[k]);
          uint64_t step = s_counter[sIdx[k]];
          if (live) {
            char* line = c.buf + (long long)(step % NCCL_STEPS) * slotBytes + l * 128 + sub * 16;
            st_volatile_2u64(line, acc0, sub == 7 ? step + 1 : acc1);
          }
        }
      }
      __syncthreads();
      if (tid == 0) {
        for (int k = 0; k < nRecv; k++) {
          Conn c = loadConn(conns, rIdx[k]);
          st_relaxed_sys(c.head, s_counter[rIdx[k]] + slots);
        }
      }
    }
    if (tid == 0) {
      for (int k = 0; k < nRecv; k++) s_counter[rIdx[k]] += slots;
      for (int k = 0; k < nSend; k++) s_counter[sIdx[k]] += slots;
    }
    __syncthreads();
  }
  for (int i = tid; i < nConns; i += blockDim.x) *connCounter(conns, i) = s_counter[i];
}

// ---------------------------------------------------------------- entry points
// One launch per rank: CTA b runs task b of the rank's task table (4 x int64 per task: steps pointer,
// step count, connection table pointer, connection count), one task per (channel, lane), as NCCL runs one
// CTA per channel in one kernel. All CTAs of all ranks must be co-resident (they wait on each other).
#define CCSIM_KERNEL(PNAME, PROTO, TNAME, T, ONAME, OP)                                                    \
  extern "C" __global__ void __launch_bounds__(1024) ccsim_##PNAME##_##TNAME##_##ONAME(                    \
      const long long* tasks, const char* src, char* dst, long long slotBytes, int nRanks) {               \
    const long long* d = tasks + 4 * blockIdx.x;                                                           \
    runSteps<T, OP, PROTO>((const long long*)d[0], (int)d[1], (const uint64_t*)d[2], (int)d[3], src, dst,  \
                           slotBytes, nRanks);                                                             \
  }
#define CCSIM_OPS(PNAME, PROTO, TNAME, T)            \
  CCSIM_KERNEL(PNAME, PROTO, TNAME, T, sum, OP_SUM)  \
  CCSIM_KERNEL(PNAME, PROTO, TNAME, T, prod, OP_PROD) \
  CCSIM_KERNEL(PNAME, PROTO, TNAME, T, max, OP_MAX)  \
  CCSIM_KERNEL(PNAME, PROTO, TNAME, T, min, OP_MIN)  \
  CCSIM_KERNEL(PNAME, PROTO, TNAME, T, avg, OP_AVG)
// One PTX module per element type keeps each module small enough to JIT quickly: build-ptx.sh compiles
// this file once per CCSIM_TYPE_<name>.
#define CCSIM_PROTOS(TNAME, T)            \
  CCSIM_OPS(simple, P_SIMPLE, TNAME, T)   \
  CCSIM_OPS(ll, P_LL, TNAME, T)           \
  CCSIM_OPS(ll128, P_LL128, TNAME, T)

#if defined(CCSIM_TYPE_i8)
CCSIM_PROTOS(i8, int8_t)
#elif defined(CCSIM_TYPE_u8)
CCSIM_PROTOS(u8, uint8_t)
#elif defined(CCSIM_TYPE_i32)
CCSIM_PROTOS(i32, int32_t)
#elif defined(CCSIM_TYPE_u32)
CCSIM_PROTOS(u32, uint32_t)
#elif defined(CCSIM_TYPE_i64)
CCSIM_PROTOS(i64, long long)
#elif defined(CCSIM_TYPE_u64)
CCSIM_PROTOS(u64, unsigned long long)
#elif defined(CCSIM_TYPE_f16)
CCSIM_PROTOS(f16, __half)
#elif defined(CCSIM_TYPE_bf16)
CCSIM_PROTOS(bf16, __nv_bfloat16)
#elif defined(CCSIM_TYPE_f32)
CCSIM_PROTOS(f32, float)
#elif defined(CCSIM_TYPE_f64)
CCSIM_PROTOS(f64, double)
#elif defined(CCSIM_TYPE_f8e4m3)
CCSIM_PROTOS(f8e4m3, __nv_fp8_e4m3)
#elif defined(CCSIM_TYPE_f8e5m2)
CCSIM_PROTOS(f8e5m2, __nv_fp8_e5m2)
#else
#error "define CCSIM_TYPE_<i8|u8|i32|u32|i64|u64|f16|bf16|f32|f64|f8e4m3|f8e5m2> (see build-ptx.sh)"
#endif
