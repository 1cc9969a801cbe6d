// One process a GPU, NCCL calls captured in CUDA graphs and timed as nccl-tests' -G does (K calls a graph, the
// replays between CUDA events): nccl-tests without MPI runs in one process only, PyTorch in one process a GPU, and
// this separates the two harnesses' difference from the process model's. No MPI: the parent writes NCCL's unique id to
// a file and starts one child a GPU (fork + exec of itself).
//
// Build (GPU host): nvcc -O2 -o mp_graph mp_graph.cu -I$NCCL/include -L$NCCL/lib -lnccl
// Run:   ./mp_graph N OP > out.txt        (OP: all_reduce | broadcast | sendrecv; N GPUs, one process each)
// Prints, from rank 0, one line a size: bytes, µs a call (median of R replays of K calls each), K, R.
#include <cuda_runtime.h>
#include <nccl.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <sys/wait.h>
#include <vector>

#define CK(x) do { cudaError_t ck_e = (x); if (ck_e != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, \
    cudaGetErrorString(ck_e)); exit(1); } } while (0)
#define NK(x) do { ncclResult_t nk_r = (x); if (nk_r != ncclSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, \
    ncclGetErrorString(nk_r)); exit(1); } } while (0)

static void call(const std::string& op, float* in, float* out, size_t count, int rank, int n, ncclComm_t comm,
                 cudaStream_t s) {
    if (op == "all_reduce") {
        NK(ncclAllReduce(in, out, count, ncclFloat, ncclSum, comm, s));
    } else if (op == "broadcast") {
        NK(ncclBroadcast(in, out, count, ncclFloat, 0, comm, s));
    } else {  // sendrecv: rank r sends to r+1 and receives from r-1, as nccl-tests' sendrecv_perf
        NK(ncclGroupStart());
        NK(ncclSend(in, count, ncclFloat, (rank + 1) % n, comm, s));
        NK(ncclRecv(out, count, ncclFloat, (rank + n - 1) % n, comm, s));
        NK(ncclGroupEnd());
    }
}

static int child(int rank, int n, const std::string& op, const char* idFile) {
    ncclUniqueId id;
    FILE* f = fopen(idFile, "rb");
    if (!f || fread(&id, sizeof id, 1, f) != 1) { fprintf(stderr, "rank %d: no id\n", rank); return 1; }
    fclose(f);
    CK(cudaSetDevice(rank));
    ncclComm_t comm;
    NK(ncclCommInitRank(&comm, n, id, rank));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const size_t maxBytes = 16u << 20;
    float *in, *out;
    CK(cudaMalloc(&in, maxBytes));
    CK(cudaMalloc(&out, maxBytes));
    const int K = 10, R = 20;
    for (size_t bytes = 8; bytes <= maxBytes; bytes *= 2) {
        size_t count = bytes / sizeof(float);
        if (count == 0) continue;
        for (int w = 0; w < 5; w++) call(op, in, out, count, rank, n, comm, s);
        CK(cudaStreamSynchronize(s));
        cudaGraph_t g;
        cudaGraphExec_t ge;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        for (int k = 0; k < K; k++) call(op, in, out, count, rank, n, comm, s);
        CK(cudaStreamEndCapture(s, &g));
        CK(cudaGraphInstantiate(&ge, g, 0));
        for (int w = 0; w < 3; w++) CK(cudaGraphLaunch(ge, s));
        CK(cudaStreamSynchronize(s));
        std::vector<cudaEvent_t> ev(R + 1);
        for (auto& e : ev) CK(cudaEventCreate(&e));
        CK(cudaEventRecord(ev[0], s));
        for (int r = 0; r < R; r++) {
            CK(cudaGraphLaunch(ge, s));
            CK(cudaEventRecord(ev[r + 1], s));
        }
        CK(cudaStreamSynchronize(s));
        std::vector<float> us(R);
        for (int r = 0; r < R; r++) {
            float ms;
            CK(cudaEventElapsedTime(&ms, ev[r], ev[r + 1]));
            us[r] = ms * 1000.0f / K;
        }
        std::sort(us.begin(), us.end());
        if (rank == 0) printf("%zu %.2f %d %d\n", bytes, us[R / 2], K, R);
        fflush(stdout);
        for (auto& e : ev) CK(cudaEventDestroy(e));
        CK(cudaGraphExecDestroy(ge));
        CK(cudaGraphDestroy(g));
    }
    NK(ncclCommDestroy(comm));
    return 0;
}

int main(int argc, char** argv) {
    if (argc == 5 && std::string(argv[1]) == "child") return child(atoi(argv[2]), atoi(argv[3]), argv[4], getenv("MP_ID"));
    if (argc != 3) { fprintf(stderr, "usage: %s N all_reduce|broadcast|sendrecv\n", argv[0]); return 2; }
    int n = atoi(argv[1]);
    std::string op = argv[2];
    if (op != "all_reduce" && op != "broadcast" && op != "sendrecv") { fprintf(stderr, "unknown op %s\n", argv[2]); return 2; }
    char idFile[] = "/tmp/mp_graph_idXXXXXX";
    int fd = mkstemp(idFile);
    ncclUniqueId id;
    NK(ncclGetUniqueId(&id));
    if (fd < 0 || write(fd, &id, sizeof id) != (ssize_t) sizeof id) { perror("id file"); return 1; }
    close(fd);
    setenv("MP_ID", idFile, 1);
    std::vector<pid_t> kids;
    for (int r = 0; r < n; r++) {
        pid_t p = fork();
        if (p == 0) {
            std::string rs = std::to_string(r), ns = std::to_string(n);
            execl("/proc/self/exe", argv[0], "child", rs.c_str(), ns.c_str(), op.c_str(), (char*) nullptr);
            _exit(127);
        }
        kids.push_back(p);
    }
    int rc = 0;
    for (pid_t p : kids) {
        int st;
        waitpid(p, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) rc = 1;
    }
    unlink(idFile);
    return rc;
}
