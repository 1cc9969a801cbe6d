"""ccsim's Java API from Python, through JPype: start the JVM on ccsim's jar, name the classes, run sweeps.

The jar is ../cli/target/ccsim.jar (built by `./ccsim --version` or `mvn package` at the repository root), or the
path in $CCSIM_JAR. Debian's python3-jpype keeps its Java half in /usr/share/java/org.jpype.jar, which must be on
the class path too; it is added when present.
"""
import os
import pathlib

import jpype
import pandas as pd

ROOT = pathlib.Path(__file__).resolve().parent.parent
JAR = pathlib.Path(os.environ.get("CCSIM_JAR", ROOT / "cli" / "target" / "ccsim.jar"))
_JPYPE_JAR = pathlib.Path("/usr/share/java/org.jpype.jar")


def start():
    """Starts the JVM once per kernel (JPype cannot restart it)."""
    if jpype.isJVMStarted():
        return
    if not JAR.is_file():
        raise FileNotFoundError(f"{JAR}: ccsim's jar is missing; build it with ./ccsim --version at {ROOT}")
    cp = [str(JAR)] + ([str(_JPYPE_JAR)] if _JPYPE_JAR.is_file() else [])
    jpype.startJVM("-Djava.awt.headless=true", classpath=cp, convertStrings=True)


def J(name):
    """The Java class io.ccsim.<name> (the Python module `io` hides `import io.ccsim...`)."""
    start()
    return jpype.JClass("io.ccsim." + name)


def topology(name, gpus=0, nodes=1):
    """A catalog topology: `gpus` per node (0: the board's all), `nodes` nodes."""
    return J("topology.TopologyCatalog").build(name, J("topology.BuildOptions").of(gpus, nodes))


def runner(topo, profile=None, env=None, seed=0):
    """A PerfRunner on every GPU of `topo` with a built-in profile name (default: the topology's GPU) and NCCL_* env."""
    prof = J("algorithms.profile.CalibrationProfile").builtin(profile or str(topo.gpus().get(0).attr("model")).lower())
    HashMap = jpype.JClass("java.util.HashMap")
    m = HashMap()
    for k, v in (env or {}).items():
        m.put(k, v)
    nccl = J("algorithms.tuner.NcclEnv").parse(m)
    return J("algorithms.perf.PerfRunner")(topo, topo.gpus().size(), prof, nccl, seed)


def perf(run, op, sizes, dtype="float"):
    """NCCL's default choice simulated at each size: a DataFrame of nccl-tests' columns plus algo, proto, channels."""
    cop = J("algorithms.CollectiveOp").parse(op)
    dt = J("algorithms.DataType").parse(dtype)
    red = J("algorithms.ReduceOp").parse("sum")
    rows = []
    for b in sizes:
        r = run.run(cop, int(b), dt, red, 0)
        rows.append(dict(bytes=int(r.bytes()), algo=str(r.algo().ncclName()), proto=str(r.proto().ncclName()),
                         channels=int(r.channels()), time_us=float(r.timeUs()), busbw_gbps=float(r.busbwGbps())))
    return pd.DataFrame(rows)


def sizes(lo, hi, factor=2):
    """lo, lo*factor, ... up to hi (bytes)."""
    out = []
    b = lo
    while b <= hi:
        out.append(b)
        b *= factor
    return out
