// judge-probe: which CUDA devices there are, as one JSON line (judge::print_probe), the answer of
// `judge-worker probe` without its libraries: the worker links cuBLAS, cuFFT, cuSOLVER and CUPTI, whose loading and
// static initialisation a probe does not need (about 0.1 s of every probe, and a submit probes once). The judge
// uses it when it lies beside the worker (probe_devices_now in judge/core/run/judging.cpp).
#include "judge/worker/device_info.hpp"

int main() { return judge::print_probe(); }
