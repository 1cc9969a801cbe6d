package io.ccsim.scenarios;

import io.ccsim.scenarios.format.Scenario;
import io.ccsim.scenarios.format.ScenarioParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The scenarios that reproduce real incidents, shipped as resources (the files of
 * scenarios/catalog/, listed in its INDEX).
 */
public final class ScenarioCatalog {
    static final String DIR = "/io/ccsim/scenarios/catalog/";

    private ScenarioCatalog() {}

    /**
     * A catalog entry.
     *
     * @param name        the file name without .json
     * @param description the scenario's description
     * @param expected    the expected outcome
     */
    public record Entry(String name, String description, Outcome expected) {}

    /** Names of the catalog scenarios, in catalog order. */
    public static List<String> names() {
        String index = read("INDEX");
        List<String> out = new ArrayList<>();
        for (String line : index.split("\n")) {
            String l = line.trim();
            if (!l.isEmpty() && !l.startsWith("#")) out.add(l);
        }
        return List.copyOf(out);
    }

    /** Every catalog scenario with its description and expected outcome. */
    public static List<Entry> list() {
        List<Entry> out = new ArrayList<>();
        for (String n : names()) {
            Scenario s = load(n);
            out.add(new Entry(n, s.description(), s.expect() == null ? null : s.expect().outcome()));
        }
        return List.copyOf(out);
    }

    /** The JSON text of a catalog scenario. @throws IllegalArgumentException naming the valid names */
    public static String text(String name) {
        if (!names().contains(name)) {
            throw new IllegalArgumentException("no catalog scenario '" + name + "'; valid: " + names());
        }
        return read(name + ".json");
    }

    /** Parses a catalog scenario. */
    public static Scenario load(String name) {
        return ScenarioParser.parse(text(name), "catalog/" + name + ".json");
    }

    private static String read(String file) {
        try (InputStream in = ScenarioCatalog.class.getResourceAsStream(DIR + file)) {
            if (in == null) throw new IllegalStateException("catalog resource " + DIR + file + " is missing from the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
