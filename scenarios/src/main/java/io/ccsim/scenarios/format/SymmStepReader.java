package io.ccsim.scenarios.format;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.DataType;
import java.util.List;
import java.util.Set;

/**
 * The symmetric-memory steps of a program and the process-group registration they rely on:
 * {@code register_process_group}, {@code symm_mem_alloc}, {@code symm_mem_set_backend},
 * {@code symm_mem_rendezvous}, {@code symm_mem_all_reduce}.
 */
final class SymmStepReader {
    /** PyTorch's symm_mem reductions take float and bfloat16 (CUDASymmetricMemoryOps.cu). */
    private static final List<DataType> DTYPES = List.of(DataType.FLOAT32, DataType.BFLOAT16);

    private final JsonReader json;

    SymmStepReader(JsonReader json) { this.json = json; }

    Step step(String kind, JsonElement v, String p, Set<Integer> only) {
        switch (kind) {
            case "register_process_group": {
                JsonObject o = json.obj(v, p, List.of("group", "name", "members_only"));
                String group = group(o, p);
                String name = o.has("name") ? json.str(o.get("name"), p + ".name", "the name to register under") : group;
                boolean guard = o.has("members_only") && json.bool(o.get("members_only"), p + ".members_only");
                return new Step.RegisterGroup(group, name, guard, only);
            }
            case "symm_mem_alloc": {
                JsonObject o = json.obj(v, p, List.of("tensor", "bytes"));
                long bytes = json.bytes(json.req(o, "bytes", p), p + ".bytes");
                if (bytes < 1) throw json.err(p + ".bytes", "must be at least 1 byte");
                return new Step.SymmAlloc(tensor(o, p), bytes, only);
            }
            case "symm_mem_set_backend": {
                String b = json.str(v, p, String.join(", ", SymmBackend.TORCH_NAMES));
                try {
                    return new Step.SymmSetBackend(SymmBackend.parseTorch(b), only);
                } catch (IllegalArgumentException ex) {
                    throw json.err(p, ex.getMessage());
                }
            }
            case "symm_mem_rendezvous": {
                JsonObject o = json.obj(v, p, List.of("tensor", "group", "group_name"));
                String group = group(o, p);
                String name = o.has("group_name") ? json.str(o.get("group_name"), p + ".group_name", "the name to resolve") : group;
                return new Step.SymmRendezvous(tensor(o, p), group, name, only);
            }
            default: return allReduce(v, p, only);
        }
    }

    private Step allReduce(JsonElement v, String p, Set<Integer> only) {
        JsonObject o = json.obj(v, p, List.of("tensor", "group", "algo", "dtype"));
        String a = json.str(json.req(o, "algo", p), p + ".algo", "one_shot, two_shot");
        Step.SymmAlgo algo = null;
        for (Step.SymmAlgo x : Step.SymmAlgo.values()) if (x.id().equals(a)) algo = x;
        if (algo == null) throw json.err(p + ".algo", "unknown algorithm '" + a + "'; valid: one_shot, two_shot");
        DataType dt = DataType.BFLOAT16;
        if (o.has("dtype")) {
            String d = json.str(o.get("dtype"), p + ".dtype", "float32, bfloat16");
            dt = null;
            for (DataType x : DTYPES) if (x.longName().equals(d)) dt = x;
            if (dt == null) throw json.err(p + ".dtype", "'" + d + "' is not reduced by PyTorch's symm_mem ops; valid: float32, bfloat16");
        }
        return new Step.SymmAllReduce(tensor(o, p), group(o, p), algo, dt, only);
    }

    private String tensor(JsonObject o, String p) {
        return json.str(json.req(o, "tensor", p), p + ".tensor", "the symmetric tensor's name in the program");
    }

    private String group(JsonObject o, String p) {
        if (!o.has("group")) return "world";
        String g = json.str(o.get("group"), p + ".group", "a process group name (\"world\" or a new_group name)");
        if (g.isEmpty()) throw json.err(p + ".group", "must not be empty");
        return g;
    }
}
