package io.ccsim.scenarios.format;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.scenarios.ScenarioFormatException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads scenario files (JSON; the format is documented in scenarios/README.md). Strict: unknown
 * fields, wrong types and out-of-range values are {@link ScenarioFormatException}s that name the file,
 * the JSON path and what is valid. One reader per section ({@link TopologyReader},
 * {@link SettingsReader}, {@link JobReader} with {@link StepReader}, {@link FaultReader},
 * {@link ExpectReader}), all over one {@link JsonReader}.
 */
public final class ScenarioParser {
    private static final List<String> TOP = List.of("name", "description", "topology", "settings", "job", "faults", "expect");

    private ScenarioParser() {}

    /**
     * Parses scenario JSON; {@code source} names the file in error messages. A topology file is
     * resolved against the current directory.
     *
     * @throws ScenarioFormatException for a malformed scenario
     */
    public static Scenario parse(String json, String source) {
        return parse(json, source, null);
    }

    /**
     * Parses scenario JSON whose topology file, if any, is resolved against {@code baseDir} (null: current directory).
     *
     * @throws ScenarioFormatException for a malformed scenario
     */
    public static Scenario parse(String json, String source, Path baseDir) {
        JsonElement root = io.ccsim.topology.input.JsonTree.parse(json, "a scenario object with fields " + TOP,
                (path, problem) -> new ScenarioFormatException(source, path, problem));
        JsonReader r = new JsonReader(source);
        JsonObject o = r.obj(root, "$", TOP);
        String name = r.str(r.req(o, "name", "$"), "$.name", "a short name");
        String description = o.has("description") ? r.str(o.get("description"), "$.description", "a text") : "";
        TopologyReader.Section topo = new TopologyReader(r, baseDir).read(r.req(o, "topology", "$"));
        Settings settings = new SettingsReader(r).read(o.get("settings"));
        JobSpec job = new JobReader(r).read(r.req(o, "job", "$"));
        List<Fault> faults = o.has("faults") ? new FaultReader(r, job.worldSize(), ProgramSize.iterations(job.program())).read(o.get("faults")) : List.of();
        Scenario.Expectation expect = o.has("expect") ? new ExpectReader(r, job.worldSize()).read(o.get("expect")) : null;
        return new Scenario(name, description, topo.name(), topo.file(), topo.nodes(), topo.gpusPerNode(), job, faults, settings,
                expect);
    }
}
