package io.ccsim.gpu.kernel;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Properties;

/**
 * The project's kernels as PTX resources: {@code io/ccsim/gpu/ccsim_<type>.ptx}, one module per element
 * type, compiled from {@code src/main/cuda/ccsim_prims.cu} by {@code build-ptx.sh}
 * ({@code nvcc -ptx -arch=sm_90 -O3}); {@code ptx-manifest.properties} records the source's sha256.
 */
public final class Ptx {
    static final String RESOURCE_DIR = "/io/ccsim/gpu/";
    static final String MANIFEST = RESOURCE_DIR + "ptx-manifest.properties";

    private Ptx() { }

    /** The type tag of kernel and module names ({@code f32}, {@code bf16}, {@code f8e4m3}...). */
    static String typeTag(DataType t) {
        switch (t) {
            case INT8: return "i8";
            case UINT8: return "u8";
            case INT32: return "i32";
            case UINT32: return "u32";
            case INT64: return "i64";
            case UINT64: return "u64";
            case FLOAT16: return "f16";
            case BFLOAT16: return "bf16";
            case FLOAT32: return "f32";
            case FLOAT64: return "f64";
            case FP8_E4M3: return "f8e4m3";
            case FP8_E5M2: return "f8e5m2";
            default: throw new IllegalArgumentException("no kernels for data type " + t);
        }
    }

    /** The kernel's entry name: {@code ccsim_<simple|ll|ll128>_<type>_<op>}. */
    public static String kernelName(Protocol p, DataType t, ReduceOp op) {
        return "ccsim_" + p.name().toLowerCase(Locale.ROOT) + "_" + typeTag(t) + "_" + op.name().toLowerCase(Locale.ROOT);
    }

    /** The module resource's path for element type {@code t}. */
    public static String resource(DataType t) {
        return RESOURCE_DIR + "ccsim_" + typeTag(t) + ".ptx";
    }

    /**
     * PTX text of the module for {@code t}, NUL-terminated as cuModuleLoadData wants it.
     *
     * @throws IllegalStateException if the resource is missing (build-ptx.sh not run)
     */
    public static byte[] moduleImage(DataType t) {
        byte[] text = read(resource(t));
        byte[] z = new byte[text.length + 1];
        System.arraycopy(text, 0, z, 0, text.length);
        return z;
    }

    static Properties manifest() {
        Properties p = new Properties();
        try (InputStream in = Ptx.class.getResourceAsStream(MANIFEST)) {
            if (in == null) throw new IllegalStateException("PTX manifest resource missing: " + MANIFEST);
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + MANIFEST, e);
        }
        return p;
    }

    static byte[] read(String resource) {
        try (InputStream in = Ptx.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("PTX resource missing: " + resource
                        + " (run gpu-backend/src/main/cuda/build-ptx.sh)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** First line of a module: {@code // ccsim-source: ccsim_prims.cu sha256=<hex> type=<tag>}. */
    static String header(DataType t) {
        String s = new String(read(resource(t)), 0, 200, StandardCharsets.US_ASCII);
        return s.substring(0, s.indexOf('\n'));
    }
}
