#include "judge/worker/generate.hpp"

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "judge/worker/element.cuh"
#include "judge/worker/named_registry.hpp"
#include "judge/worker/readback.cuh"
#include "judge/worker/rng.hpp"
#include "judge/worker/vec4.cuh"

namespace judge {

namespace {

constexpr int kThreads = 256;

int grid_for(std::int64_t count) {
  std::int64_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 1 ? 1 : (blocks > 65535 * 8 ? 65535 * 8 : blocks));
}

// A built-in distribution, flattened for the kernels. values/specials point to device memory.
struct GenParams {
  int kind = 0;
  double a = 0, b = 0;
  float af = 0, bf = 0;  // a, b as float: the float32 path computes in float
  float special_fraction_f = 0;
  const double* values = nullptr;
  std::int64_t n_values = 0;
  const double* specials = nullptr;
  std::int64_t n_specials = 0;
  double special_fraction = 0;
  bool integer = false;
};

constexpr std::uint64_t kSpecialStream = 0x5bd1e9955bd1e995ull;

__device__ double sample(const GenParams& p, std::uint64_t key, std::uint64_t i) {
  double v = 0;
  switch (static_cast<Distribution::Kind>(p.kind)) {
    case Distribution::Kind::uniform: {
      double u = unit_double(counter_hash(key, 2 * i));
      if (p.integer) {
        v = p.a + floor(u * (p.b - p.a + 1.0));
        if (v > p.b) v = p.b;
      } else {
        v = p.a + (p.b - p.a) * u;
      }
      break;
    }
    case Distribution::Kind::normal: {
      double u1 = unit_double(counter_hash(key, 2 * i));
      double u2 = unit_double(counter_hash(key, 2 * i + 1));
      v = p.a + p.b * sqrt(-2.0 * log(1.0 - u1)) * cospi(2.0 * u2);
      if (p.integer) v = rint(v);
      break;
    }
    case Distribution::Kind::constant:
      v = p.a;
      break;
    case Distribution::Kind::values:
      v = p.values[i % static_cast<std::uint64_t>(p.n_values)];
      break;
    default:
      break;
  }
  if (p.special_fraction > 0) {
    std::uint64_t h = counter_hash(key ^ kSpecialStream, i);
    if (unit_double(h) < p.special_fraction) v = p.specials[mix64(h) % static_cast<std::uint64_t>(p.n_specials)];
  }
  return v;
}

// float32 inputs: a 32-bit counter hash (murmur3's finaliser, keyed twice) and float arithmetic are several times
// cheaper than the 64-bit hash and double maths, so generation runs near memory speed. int32 keeps the 64-bit path
// (its ranges need more than 24 random bits).
struct Keys32 {
  std::uint32_t k1, k2, k3, k4;
};

__device__ Keys32 keys_of(std::uint64_t key) {
  std::uint64_t m = mix64(key);
  return {static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(m),
          static_cast<std::uint32_t>(m >> 32)};
}

__device__ std::uint32_t hash32(std::uint32_t i, std::uint32_t k1, std::uint32_t k2) {
  std::uint32_t x = (i ^ k1) * 0x9e3779b9u;
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x ^= k2;
  x *= 0xc2b2ae35u;
  return x ^ (x >> 16);
}

__device__ float unit_float(std::uint32_t x) { return static_cast<float>(x >> 8) * (1.0f / 16777216.0f); }

__device__ float sample_float(const GenParams& p, const Keys32& k, std::uint32_t i) {
  float v = 0;
  switch (static_cast<Distribution::Kind>(p.kind)) {
    case Distribution::Kind::uniform:
      v = fmaf(p.bf - p.af, unit_float(hash32(i, k.k1, k.k2)), p.af);
      break;
    case Distribution::Kind::normal: {
      float u1 = unit_float(hash32(2 * i, k.k1, k.k2));
      float u2 = unit_float(hash32(2 * i + 1, k.k1, k.k2));
      v = p.af + p.bf * sqrtf(-2.0f * logf(1.0f - u1)) * cospif(2.0f * u2);
      break;
    }
    case Distribution::Kind::constant:
      v = static_cast<float>(p.a);
      break;
    case Distribution::Kind::values:
      v = static_cast<float>(p.values[i % static_cast<std::uint64_t>(p.n_values)]);
      break;
    default:
      break;
  }
  if (p.special_fraction > 0) {
    std::uint32_t h = hash32(i, k.k3, k.k4);
    if (unit_float(h) < p.special_fraction_f)
      v = static_cast<float>(p.specials[hash32(h, k.k4, k.k1) % static_cast<std::uint32_t>(p.n_specials)]);
  }
  return v;
}

// Floating types take the float path (half types round its result); integer types the 64-bit one, saturated.
template <class T>
__device__ T sample_as(const GenParams& p, std::uint64_t key, const Keys32& k, std::int64_t i) {
  if constexpr (std::is_same_v<T, float>) {
    return sample_float(p, k, static_cast<std::uint32_t>(i));
  } else if constexpr (is_half_type<T>) {
    return from_double<T>(sample_float(p, k, static_cast<std::uint32_t>(i)));
  } else {
    return from_double<T>(sample(p, key, static_cast<std::uint64_t>(i)));
  }
}

// float and int move four elements per 16-byte access; the other types one at a time.
template <class T>
constexpr bool kVectorised = std::is_same_v<T, float> || std::is_same_v<T, int>;

// Four consecutive elements per thread, one 16-byte store when the pointer allows it.
template <class T>
__global__ void generate_kernel(T* out, std::int64_t count, GenParams p, std::uint64_t key) {
  Keys32 k = keys_of(key);
  bool aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  for (std::int64_t base = (blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x) * 4; base < count;
       base += std::int64_t(gridDim.x) * blockDim.x * 4) {
    if constexpr (!kVectorised<T>) {
      for (std::int64_t i = base; i < count && i < base + 4; ++i) out[i] = sample_as<T>(p, key, k, i);
    } else if (aligned && base + 3 < count) {
      typename Vec4<T>::type v;
      v.x = sample_as<T>(p, key, k, base);
      v.y = sample_as<T>(p, key, k, base + 1);
      v.z = sample_as<T>(p, key, k, base + 2);
      v.w = sample_as<T>(p, key, k, base + 3);
      *reinterpret_cast<typename Vec4<T>::type*>(out + base) = v;
    } else {
      for (std::int64_t i = base; i < count && i < base + 4; ++i) out[i] = sample_as<T>(p, key, k, i);
    }
  }
}

template <class T>
__global__ void changed_kernel(const T* data, std::int64_t count, GenParams p, std::uint64_t key,
                               unsigned long long* changed) {
  Keys32 k = keys_of(key);
  bool aligned = reinterpret_cast<std::uintptr_t>(data) % 16 == 0;
  unsigned long long local = 0;
  for (std::int64_t base = (blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x) * 4; base < count;
       base += std::int64_t(gridDim.x) * blockDim.x * 4) {
    // Bitwise: NaN inputs must stay the same NaN, -0 must stay -0.
    if constexpr (!kVectorised<T>) {
      for (std::int64_t i = base; i < count && i < base + 4; ++i)
        local += !same_bits(data[i], sample_as<T>(p, key, k, i));
    } else if (aligned && base + 3 < count) {
      typename Vec4<T>::type got = *reinterpret_cast<const typename Vec4<T>::type*>(data + base);
      local += !same_bits(got.x, sample_as<T>(p, key, k, base));
      local += !same_bits(got.y, sample_as<T>(p, key, k, base + 1));
      local += !same_bits(got.z, sample_as<T>(p, key, k, base + 2));
      local += !same_bits(got.w, sample_as<T>(p, key, k, base + 3));
    } else {
      for (std::int64_t i = base; i < count && i < base + 4; ++i)
        local += !same_bits(data[i], sample_as<T>(p, key, k, i));
    }
  }
  if (local) atomicAdd(changed, local);
}

// Elements (not bytes) that differ bitwise, so the count means the same as the built-in path's.
template <class T>
__global__ void elements_differ_kernel(const T* a, const T* b, std::int64_t n, unsigned long long* changed) {
  unsigned long long local = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    local += !same_bits(a[i], b[i]);
  if (local) atomicAdd(changed, local);
}

__device__ unsigned char guard_byte(std::uint64_t key, std::uint64_t offset) {
  return static_cast<unsigned char>(counter_hash(key, offset / 8) >> (8 * (offset % 8)));
}

__global__ void fill_guard_kernel(unsigned char* base, std::uint64_t begin, std::uint64_t end, std::uint64_t key) {
  for (std::uint64_t x = begin + blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; x < end;
       x += std::uint64_t(gridDim.x) * blockDim.x)
    base[x] = guard_byte(key, x);
}

struct GuardCounters {
  unsigned long long front_changed;
  unsigned long long back_changed;
  long long front_last;  // highest changed offset in the front guard (closest to the data)
  long long back_first;  // lowest changed offset in the back guard
};

__global__ void check_guard_kernel(const unsigned char* base, std::uint64_t data_begin, std::uint64_t data_end,
                                   std::uint64_t total, std::uint64_t key, GuardCounters* out) {
  std::uint64_t guard_bytes = data_begin + (total - data_end);
  for (std::uint64_t g = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; g < guard_bytes;
       g += std::uint64_t(gridDim.x) * blockDim.x) {
    std::uint64_t x = g < data_begin ? g : data_end + (g - data_begin);
    if (base[x] != guard_byte(key, x)) {
      if (x < data_begin) {
        atomicAdd(&out->front_changed, 1ull);
        atomicMax(&out->front_last, static_cast<long long>(x));
      } else {
        atomicAdd(&out->back_changed, 1ull);
        atomicMin(&out->back_first, static_cast<long long>(x));
      }
    }
  }
}

template <class T>
__global__ void fill_pattern_kernel(T* out, std::int64_t count, T pattern) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = pattern;
}

// Device copies of a distribution's value lists, alive for one generate/compare.
struct DeviceGenParams {
  GenParams params;
  DeviceBuffer values, specials;
};

DeviceGenParams upload(const Distribution& d, DType dtype, cudaStream_t stream) {
  DeviceGenParams out;
  GenParams& p = out.params;
  p.kind = static_cast<int>(d.kind);
  p.integer = is_integer(dtype);
  switch (d.kind) {
    case Distribution::Kind::uniform:
      p.a = d.low;
      p.b = d.high;
      break;
    case Distribution::Kind::normal:
      p.a = d.mean;
      p.b = d.stddev;
      break;
    case Distribution::Kind::constant:
      p.a = d.value;
      break;
    default:
      break;
  }
  auto copy = [&](const std::vector<double>& v, DeviceBuffer& buf) -> const double* {
    if (v.empty()) return nullptr;
    buf = DeviceBuffer(v.size() * sizeof(double));
    JUDGE_CUDA_CHECK(cudaMemcpyAsync(buf.get(), v.data(), v.size() * sizeof(double), cudaMemcpyHostToDevice, stream));
    return static_cast<const double*>(buf.get());
  };
  if (d.kind == Distribution::Kind::values) {
    p.values = copy(d.values, out.values);
    p.n_values = static_cast<std::int64_t>(d.values.size());
  }
  if (d.special_fraction > 0 && !d.specials.empty()) {
    p.specials = copy(d.specials, out.specials);
    p.n_specials = static_cast<std::int64_t>(d.specials.size());
    p.special_fraction = d.special_fraction;
    p.special_fraction_f = static_cast<float>(d.special_fraction);
  }
  p.af = static_cast<float>(p.a);
  p.bf = static_cast<float>(p.b);
  return out;
}

NamedRegistry<CustomGenerator>& generators() {
  static NamedRegistry<CustomGenerator> r("generator", "judge/worker/generators/", "JUDGE_GENERATOR");
  return r;
}

CustomGenerator find_generator(const std::string& name) { return generators().find(name); }

}  // namespace

void register_generator(const std::string& name, CustomGenerator fn) { generators().add(name, std::move(fn)); }

bool has_generator(const std::string& name) { return generators().has(name); }

double GeneratorCall::arg(const std::string& name) const {
  auto it = args.find(name);
  if (it == args.end())
    JUDGE_THROW(Error, "generator '{}' needs the argument '{}' (\"args\": {{\"{}\": ...}} in the spec)", dist.custom,
                name, name);
  return it->second;
}

std::uint64_t input_key(std::uint64_t seed, const std::string& case_name, const std::string& param,
                        const Distribution& dist, int call) {
  // "/draw/" cannot collide with a parameter's label: parameter names are identifiers, without '/'.
  std::string label = dist.draw.empty() ? case_name + "/" + param : case_name + "/draw/" + dist.draw;
  // Each call's key straight from the seed: knowing this call's key says nothing of the next one's.
  if (call > 0) label += "#" + std::to_string(call);
  return derive_key(seed, label);
}

void generate(void* data, DType dtype, std::int64_t count, const Distribution& dist, std::uint64_t key,
              const Env& scalars, cudaStream_t stream) {
  if (count == 0) return;
  const Distribution d = dist.resolved(scalars);
  if (d.kind == Distribution::Kind::custom) {
    find_generator(d.custom)(GeneratorCall{data, dtype, count, d, dist.resolved_args(scalars), key, scalars, stream});
    JUDGE_CUDA_CHECK(cudaGetLastError());
    return;
  }
  DeviceGenParams p = upload(d, dtype, stream);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    generate_kernel<T><<<grid_for((count + 3) / 4), kThreads, 0, stream>>>(static_cast<T*>(data), count, p.params,
                                                                          key);
  });
  JUDGE_CUDA_CHECK(cudaGetLastError());
  // Value lists (if any) are freed when p goes out of scope: finish using them first.
  if (p.values.get() || p.specials.get()) JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::int64_t count_changed(const void* data, DType dtype, std::int64_t count, const Distribution& dist,
                           std::uint64_t key, const Env& scalars, cudaStream_t stream) {
  if (count == 0) return 0;
  Readback& rb = Readback::instance();
  auto* changed = rb.slot(0ull, stream);
  DeviceGenParams p;  // must outlive the kernels below
  DeviceBuffer regenerated;
  const Distribution d = dist.resolved(scalars);
  if (d.kind == Distribution::Kind::custom) {
    // Structured inputs are regenerated whole and compared byte for byte.
    std::size_t bytes = static_cast<std::size_t>(count) * size_of(dtype);
    regenerated = DeviceBuffer(bytes);
    generate(regenerated.get(), dtype, count, dist, key, scalars, stream);
    changed = rb.slot(0ull, stream);  // a generator may have used the slot
    std::int64_t elements = count;
    visit_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      elements_differ_kernel<T><<<grid_for(elements), kThreads, 0, stream>>>(
          static_cast<const T*>(data), static_cast<const T*>(regenerated.get()), elements, changed);
    });
  } else {
    p = upload(d, dtype, stream);
    visit_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      changed_kernel<T><<<grid_for((count + 3) / 4), kThreads, 0, stream>>>(static_cast<const T*>(data), count,
                                                                           p.params, key, changed);
    });
  }
  JUDGE_CUDA_CHECK(cudaGetLastError());
  return static_cast<std::int64_t>(rb.read<unsigned long long>(stream));
}

void fill_guards(const GuardedBuffer& b, std::uint64_t key, cudaStream_t stream) {
  if (b.guard_bytes() == 0) return;
  auto* base = reinterpret_cast<unsigned char*>(b.base());
  fill_guard_kernel<<<grid_for(static_cast<std::int64_t>(b.guard_bytes())), kThreads, 0, stream>>>(
      base, 0, b.guard_bytes(), key);
  std::uint64_t back = b.back_guard_offset();
  fill_guard_kernel<<<grid_for(static_cast<std::int64_t>(b.total_bytes() - back)), kThreads, 0, stream>>>(
      base, back, b.total_bytes(), key);
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

GuardReport check_guards(const GuardedBuffer& b, std::uint64_t key, cudaStream_t stream) {
  if (b.guard_bytes() == 0) return {};
  Readback& rb = Readback::instance();
  GuardCounters* counters = rb.slot(GuardCounters{0, 0, -1, static_cast<long long>(b.total_bytes())}, stream);
  std::uint64_t data_begin = b.guard_bytes(), data_end = b.back_guard_offset();
  std::int64_t guard_bytes = static_cast<std::int64_t>(data_begin + (b.total_bytes() - data_end));
  check_guard_kernel<<<grid_for(guard_bytes), kThreads, 0, stream>>>(
      reinterpret_cast<const unsigned char*>(b.base()), data_begin, data_end, b.total_bytes(), key,
      counters);
  JUDGE_CUDA_CHECK(cudaGetLastError());
  const GuardCounters got = rb.read<GuardCounters>(stream);
  GuardReport r;
  r.front_changed = static_cast<std::int64_t>(got.front_changed);
  r.back_changed = static_cast<std::int64_t>(got.back_changed);
  if (r.front_changed) r.first_front_offset = got.front_last - static_cast<long long>(data_begin);
  if (r.back_changed) r.first_back_offset = got.back_first - static_cast<long long>(data_end);
  return r;
}

void poison(void* data, DType dtype, std::int64_t count, cudaStream_t stream) {
  if (count == 0) return;
  switch (size_of(dtype)) {
    case 4:
      fill_pattern_kernel<std::uint32_t><<<grid_for(count), kThreads, 0, stream>>>(static_cast<std::uint32_t*>(data),
                                                                                 count, kPoison32);
      break;
    case 2:
      fill_pattern_kernel<std::uint16_t><<<grid_for(count), kThreads, 0, stream>>>(static_cast<std::uint16_t*>(data),
                                                                                 count, kPoison16);
      break;
    case 1:
      JUDGE_CUDA_CHECK(cudaMemsetAsync(data, kPoison8, static_cast<std::size_t>(count), stream));
      break;
    case 8:
      fill_pattern_kernel<std::uint64_t><<<grid_for(count), kThreads, 0, stream>>>(
          static_cast<std::uint64_t*>(data), count, poison_bits<std::uint64_t>());
      break;
    default:
      JUDGE_THROW(Error, "cannot poison buffers of dtype {}", to_string(dtype));
  }
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace judge
