#include <algorithm>
#include <memory>

#include "judge/worker/reference.hpp"

namespace judge {

void ArgTable::set_buffer(const std::string& name, void* data, DType dtype, std::int64_t count) {
  buffers_[name] = Buffer{data, dtype, count};
}

void ArgTable::set_scalar(const std::string& name, double value) { scalars_[name] = value; }

const ArgTable::Buffer& ArgTable::buffer_entry(const std::string& name) const {
  auto it = buffers_.find(name);
  if (it == buffers_.end()) JUDGE_THROW(Error, "reference asked for buffer '{}', which the case does not have", name);
  return it->second;
}

const ArgTable::Buffer& ArgTable::buffer(const std::string& name, std::size_t element_size) const {
  const Buffer& b = buffer_entry(name);
  if (size_of(b.dtype) != element_size)
    JUDGE_THROW(Error, "reference reads buffer '{}' with {}-byte elements, but its dtype is {}", name, element_size,
                to_string(b.dtype));
  return b;
}

double ArgTable::scalar_value(const std::string& name) const {
  auto it = scalars_.find(name);
  if (it == scalars_.end()) JUDGE_THROW(Error, "reference asked for scalar '{}', which the case does not have", name);
  return it->second;
}

void HostArgs::set_output(const std::string& name, double* data, std::int64_t count) {
  outputs_[name] = Buffer{data, DType::float64, count};
}

double* HostArgs::output(const std::string& name) const {
  auto it = outputs_.find(name);
  if (it == outputs_.end())
    JUDGE_THROW(Error, "CPU reference asked for output '{}', which the case does not have (outputs and in-outs only)",
                name);
  return static_cast<double*>(it->second.data);
}

cublasHandle_t DeviceArgs::cublas() const {
  if (!cublas_ && make_cublas_) cublas_ = make_cublas_();
  if (!cublas_) JUDGE_THROW(Error, "reference asked for a cuBLAS handle, but the worker did not provide one");
  return cublas_;
}

namespace {
std::vector<std::unique_ptr<ReferenceEntry>>& registry() {
  static std::vector<std::unique_ptr<ReferenceEntry>> entries;
  return entries;
}
}  // namespace

ReferenceRegistrar::ReferenceRegistrar(const char* id, GpuReference gpu, CpuReference cpu) {
  registry().push_back(std::make_unique<ReferenceEntry>(ReferenceEntry{id, gpu, cpu}));
}

const ReferenceEntry* find_reference(const std::string& id) {
  for (const auto& e : registry())
    if (e->id == id) return e.get();
  return nullptr;
}

std::vector<const ReferenceEntry*> all_references() {
  std::vector<const ReferenceEntry*> out;
  for (const auto& e : registry()) out.push_back(e.get());
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->id < b->id; });
  return out;
}

}  // namespace judge
