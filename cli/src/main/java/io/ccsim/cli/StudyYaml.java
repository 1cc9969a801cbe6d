package io.ccsim.cli;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A study file written in YAML: the same document as the JSON study file ({@link SweepSpec}), read into the same
 * tree, with the line of every value kept so that an error names the file, the line and the path
 * ({@code study.yaml:7: $.gpus[1]: invalid -1; valid: ...}).
 *
 * <p>Only YAML's data is read (SnakeYAML's node graph, never its object construction): mappings become objects (keys
 * must be scalars, each at most once), sequences arrays, scalars take the type YAML 1.1's core schema resolves
 * ({@code 4} an integer, {@code 0.5} a number, {@code true}/{@code false} booleans, {@code ~} or an empty value null,
 * the rest strings: {@code 1M} is the string "1M", as in JSON). One document per file.
 */
final class StudyYaml {
    private StudyYaml() {}

    /** A document's tree and the 1-based line of the value at each path ({@code $}, {@code $.sizes.min}, {@code $.ops[1]}). */
    record Tree(JsonElement root, Map<String, Integer> lines) {
        /** The line of {@code path}, or of its nearest enclosing value that has one ({@code $} always has). */
        int lineOf(String path) {
            String p = path;
            while (!lines.containsKey(p)) {
                int cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
                if (cut <= 0) return lines.getOrDefault("$", 1);
                p = p.substring(0, cut);
            }
            return lines.get(p);
        }
    }

    /** Whether {@code file} names a YAML study ({@code .yaml}, {@code .yml}, any case). */
    static boolean isYaml(String file) {
        String f = file.toLowerCase(java.util.Locale.ROOT);
        return f.endsWith(".yaml") || f.endsWith(".yml");
    }

    /**
     * The study of YAML {@code text}.
     *
     * @throws UserException naming {@code file}, the line and, for a bad value, the path and what is valid
     */
    static SweepSpec parse(String text, String file) {
        Tree t = read(text, file);
        try {
            return SweepSpec.of(t.root(), file);
        } catch (SweepSpec.SpecException e) {
            throw new UserException(file + ":" + t.lineOf(e.path()) + ": " + e.path() + ": " + e.what(), e);
        }
    }

    /** The tree of YAML {@code text}. @throws UserException naming {@code file} and the line of a syntax error */
    static Tree read(String text, String file) {
        Node root;
        try {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String where = m == null ? "" : ":" + (m.getLine() + 1);
            throw new UserException(file + where + ": not YAML: " + e.getProblem() + (e.getContext() == null ? "" : " " + e.getContext()), e);
        } catch (YAMLException e) {
            throw new UserException(file + ": not YAML: " + e.getMessage(), e);
        }
        if (root == null) throw new UserException(file + ": empty; a study is a mapping with keys " + SweepSpec.KEY_ORDER);
        Map<String, Integer> lines = new HashMap<>();
        return new Tree(convert(root, "$", file, lines), lines);
    }

    private static JsonElement convert(Node n, String path, String file, Map<String, Integer> lines) {
        lines.put(path, n.getStartMark().getLine() + 1);
        if (n instanceof MappingNode m) {
            JsonObject o = new JsonObject();
            for (NodeTuple t : m.getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode k)) {
                    throw new UserException(file + ":" + (t.getKeyNode().getStartMark().getLine() + 1) + ": " + path
                            + ": a key must be a plain name, not a list or mapping");
                }
                String key = k.getValue();
                if (o.has(key)) {
                    throw new UserException(file + ":" + (k.getStartMark().getLine() + 1) + ": " + path + "." + key
                            + ": given twice; give each key once");
                }
                o.add(key, convert(t.getValueNode(), path + "." + key, file, lines));
            }
            return o;
        }
        if (n instanceof SequenceNode s) {
            JsonArray a = new JsonArray();
            for (int i = 0; i < s.getValue().size(); i++) a.add(convert(s.getValue().get(i), path + "[" + i + "]", file, lines));
            return a;
        }
        return scalar((ScalarNode) n);
    }

    /** A scalar as the type YAML resolved for it; a number too large for a long stays exact (BigInteger). */
    private static JsonElement scalar(ScalarNode s) {
        String v = s.getValue();
        Tag tag = s.getTag();
        try {
            if (Tag.NULL.equals(tag)) return JsonNull.INSTANCE;
            if (Tag.BOOL.equals(tag)) return new JsonPrimitive(isTrue(v));
            if (Tag.INT.equals(tag)) return new JsonPrimitive(new BigInteger(v.replace("_", "")));
            if (Tag.FLOAT.equals(tag)) return new JsonPrimitive(new BigDecimal(v.replace("_", "")));
        } catch (NumberFormatException e) {
            // octal, hexadecimal, sexagesimal and .inf/.nan forms: kept as written, refused where a number is needed
        }
        return new JsonPrimitive(v);
    }

    /** YAML 1.1's true values ({@code true}, {@code yes}, {@code on}, {@code y}, any case); its resolver said it is a boolean. */
    private static boolean isTrue(String v) {
        String l = v.toLowerCase(java.util.Locale.ROOT);
        return l.equals("true") || l.equals("yes") || l.equals("on") || l.equals("y");
    }
}
