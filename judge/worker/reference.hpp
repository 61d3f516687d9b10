#pragma once
// The interface of reference/<id>.cu. Each file registers, under the challenge id:
//   - a GPU reference: computes the expected outputs of one case on the device (cuBLAS allowed, double accumulation
//     where the result needs it), on the given stream;
//   - a CPU reference in double precision, used only by tests at small sizes to validate the GPU reference.
//
//   namespace {
//   void gpu(const judge::DeviceArgs& a, cudaStream_t s) { ... a.input<float>("A") ... a.output<float>("C") ... }
//   void cpu(judge::HostArgs& a) { ... a.input<float>("A") ... a.output("C")[i] = ...; }
//   }
//   JUDGE_REFERENCE(vector_add, gpu, cpu)
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "judge/core/base/error.hpp"
#include "judge/core/challenge/dtype.hpp"

namespace judge {

// Named arguments of one case. Buffers are checked against their declared dtype on access.
class ArgTable {
 public:
  struct Buffer {
    void* data = nullptr;
    DType dtype = DType::float32;
    std::int64_t count = 0;
  };
  void set_buffer(const std::string& name, void* data, DType dtype, std::int64_t count);
  void set_scalar(const std::string& name, double value);

  const Buffer& buffer(const std::string& name, std::size_t element_size) const;
  double scalar_value(const std::string& name) const;
  std::int64_t count(const std::string& name) const { return buffer_entry(name).count; }

 private:
  const Buffer& buffer_entry(const std::string& name) const;
  std::map<std::string, Buffer> buffers_;
  std::map<std::string, double> scalars_;
};

// Device pointers of one case. Outputs start poisoned; in-outs start holding the generated input.
class DeviceArgs : public ArgTable {
 public:
  template <class T>
  const T* input(const std::string& name) const { return static_cast<const T*>(buffer(name, sizeof(T)).data); }
  template <class T>
  T* output(const std::string& name) const { return static_cast<T*>(buffer(name, sizeof(T)).data); }
  template <class T>
  T scalar(const std::string& name) const { return static_cast<T>(scalar_value(name)); }
  cublasHandle_t cublas() const;
  void set_cublas(cublasHandle_t handle) { cublas_ = handle; }
  // Made on the first cublas() call: a worker whose reference uses no cuBLAS never pays for a handle.
  void set_cublas(std::function<cublasHandle_t()> make) { make_cublas_ = std::move(make); }

 private:
  mutable cublasHandle_t cublas_ = nullptr;
  std::function<cublasHandle_t()> make_cublas_;
};

// Host copies of one case's inputs; outputs are float64 arrays of each output's element count. An in-out has both:
// input<T>(name) is what it held on entry, output(name) where the CPU reference writes its result.
class HostArgs : public ArgTable {
 public:
  template <class T>
  const T* input(const std::string& name) const { return static_cast<const T*>(buffer(name, sizeof(T)).data); }
  double* output(const std::string& name) const;
  void set_output(const std::string& name, double* data, std::int64_t count);
  template <class T>
  T scalar(const std::string& name) const { return static_cast<T>(scalar_value(name)); }

 private:
  std::map<std::string, Buffer> outputs_;
};

using GpuReference = void (*)(const DeviceArgs&, cudaStream_t);
using CpuReference = void (*)(HostArgs&);

struct ReferenceEntry {
  std::string id;
  GpuReference gpu = nullptr;
  CpuReference cpu = nullptr;
};

const ReferenceEntry* find_reference(const std::string& id);
std::vector<const ReferenceEntry*> all_references();

struct ReferenceRegistrar {
  ReferenceRegistrar(const char* id, GpuReference gpu, CpuReference cpu);
};

#define JUDGE_REFERENCE(id, gpu, cpu) \
  static const ::judge::ReferenceRegistrar judge_reference_registrar_##id(#id, gpu, cpu);

}  // namespace judge
