package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden outputs: every command of {@code golden/commands.txt} runs in-process and its exit code, standard
 * output and standard error must equal {@code golden/<name>.txt} byte for byte, after the wall-clock figures
 * are masked (see {@link GoldenCase#mask}).
 *
 * <p>A deliberate change of output regenerates the files in a commit of its own that says why:
 * {@code CCSIM_GOLDEN_UPDATE=1 mvn -B -pl cli -am test -Dtest=GoldenOutputTest -Dsurefire.failIfNoSpecifiedTests=false},
 * then {@code git diff cli/src/test/resources/golden} shows what changed.
 */
class GoldenOutputTest {
    static final Path DIR = Path.of("src", "test", "resources", "golden");
    static final Path MANIFEST = DIR.resolve("commands.txt");

    @TestFactory
    Stream<DynamicTest> everyCommandPrintsItsGoldenOutput() throws IOException {
        boolean update = "1".equals(System.getenv("CCSIM_GOLDEN_UPDATE"));
        Files.createDirectories(Path.of(GoldenCase.PLACES.get("@out/")));   // where --chart writes
        return GoldenCase.readManifest(MANIFEST).stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            String actual = c.run();
            Path file = DIR.resolve(c.name() + ".txt");
            if (update) {
                Files.writeString(file, actual, StandardCharsets.UTF_8);
                return;
            }
            assertThat(file).as("golden file of '%s' (regenerate with CCSIM_GOLDEN_UPDATE=1)", c.name()).exists();
            String expected = Files.readString(file, StandardCharsets.UTF_8);
            if (!expected.equals(actual)) {
                throw new AssertionError(GoldenCase.firstDifference(c.name(), expected, actual));
            }
        }));
    }

    @Test
    void everyGoldenFileHasItsCommandAndNamesAreUnique() throws IOException {
        List<GoldenCase> cases = GoldenCase.readManifest(MANIFEST);
        TreeSet<String> names = new TreeSet<>();
        for (GoldenCase c : cases) assertThat(names.add(c.name())).as("duplicate case name %s", c.name()).isTrue();
        try (Stream<Path> files = Files.list(DIR)) {
            List<String> orphans = files.map(p -> p.getFileName().toString())
                    .filter(f -> f.endsWith(".txt") && !f.equals("commands.txt"))
                    .map(f -> f.substring(0, f.length() - 4))
                    .filter(n -> !names.contains(n)).sorted().toList();
            assertThat(orphans).as("golden files without a command in %s", MANIFEST).isEmpty();
        }
    }

    @Test
    void maskingHidesWallClockFiguresOnly() {
        String perf = "# simulated 28 sizes in 0.11 s wall: 22953 events (0.22 M/s), 15792 flows (0.15 M/s)\n";
        assertThat(GoldenCase.mask(perf))
                .isEqualTo("# simulated 28 sizes in <wall> s wall: 22953 events (<rate> M/s), 15792 flows (<rate> M/s)\n");
        String scenario = "(simulated 0.172 s of job time in 3.62 s wall)\n";
        assertThat(GoldenCase.mask(scenario)).isEqualTo("(simulated 0.172 s of job time in <wall> s wall)\n");
        String row = "    1048576        262144     float     sum      -1    29.11   36.02   63.03    Ring      LL   24\n";
        assertThat(GoldenCase.mask(row)).isEqualTo(row);
        assertThat(GoldenCase.mask("ccsim " + BuildInfo.current().label() + "\n")).isEqualTo("ccsim <version>\n");
    }

    /**
     * One line of the manifest: {@code name [VAR=value ...] arg ...}, whitespace-separated, no quoting. Arguments
     * may start with a placeholder of {@link #PLACES}, resolved to a path here and written back in the output, so
     * that the golden text does not depend on where the fixtures lie.
     */
    record GoldenCase(String name, Map<String, String> env, List<String> args) {
        /** Placeholders and the folders they stand for, relative to the module directory (surefire's working directory). */
        static final Map<String, String> PLACES = Map.of(
                "@fixtures/", "src/test/resources/golden/fixtures/",
                "@experiments/", "target/test-classes/experiments/",
                "@out/", "target/golden-out/");

        /** The heap every golden run sees ({@link RunBudget}), whatever the test JVM has, so that refusals read the same. */
        static final long HEAP_BYTES = 4L << 30;

        private static final Pattern WALL = Pattern.compile("in \\d+(\\.\\d+)? s wall");
        private static final Pattern RATE = Pattern.compile("\\(\\d+(\\.\\d+)? M/s\\)");

        static List<GoldenCase> readManifest(Path manifest) throws IOException {
            List<GoldenCase> out = new ArrayList<>();
            int lineNo = 0;
            for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
                lineNo++;
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) continue;
                String[] tok = l.split("\\s+");
                if (tok.length < 2 || !tok[0].matches("[a-z0-9][a-z0-9._-]*")) {
                    throw new IllegalArgumentException(manifest + ":" + lineNo + ": expected 'name [VAR=value ...] arg ...' with a"
                            + " lower-case name of [a-z0-9._-], got: " + l);
                }
                Map<String, String> env = new LinkedHashMap<>();
                int i = 1;
                while (i < tok.length && tok[i].matches("[A-Z_][A-Z0-9_]*=.*")) {
                    int eq = tok[i].indexOf('=');
                    env.put(tok[i].substring(0, eq), tok[i].substring(eq + 1));
                    i++;
                }
                out.add(new GoldenCase(tok[0], env, List.of(tok).subList(i, tok.length)));
            }
            return out;
        }

        /** Runs the command and returns the golden text: the command line, the exit code, stdout and stderr, masked. */
        String run() {
            String[] resolved = args.stream().map(GoldenCase::resolve).toArray(String[]::new);
            Map<String, String> resolvedEnv = new LinkedHashMap<>();
            env.forEach((k, v) -> resolvedEnv.put(k, resolve(v)));
            StringWriter o = new StringWriter();
            StringWriter e = new StringWriter();
            int code = Main.execute(resolved, new PrintWriter(o, true), new PrintWriter(e, true), resolvedEnv,
                    new Main.Session(new io.ccsim.sim.RunControl(), false, System::nanoTime, HEAP_BYTES));
            StringBuilder sb = new StringBuilder();
            sb.append("$ ");
            env.forEach((k, v) -> sb.append(k).append('=').append(v).append(' '));
            sb.append("ccsim ").append(String.join(" ", args)).append('\n');
            sb.append("exit ").append(code).append('\n');
            sb.append("--- stdout\n").append(unresolve(o.toString()));
            sb.append("--- stderr\n").append(unresolve(e.toString()));
            return mask(sb.toString());
        }

        static String resolve(String arg) {
            for (Map.Entry<String, String> p : PLACES.entrySet()) {
                if (arg.startsWith(p.getKey())) return p.getValue() + arg.substring(p.getKey().length());
            }
            return arg;
        }

        static String unresolve(String text) {
            String t = text;
            for (Map.Entry<String, String> p : PLACES.entrySet()) t = t.replace(p.getValue(), p.getKey());
            return t;
        }

        /**
         * Masks what depends on the wall clock, "in X s wall" and "(X M/s)" rates, and on the build: its version and
         * git description ({@link BuildInfo#label()}) read {@code <version>}.
         */
        static String mask(String text) {
            String t = RATE.matcher(WALL.matcher(text).replaceAll("in <wall> s wall")).replaceAll("(<rate> M/s)");
            return t.replace(BuildInfo.current().label(), "<version>");
        }

        static String firstDifference(String name, String expected, String actual) {
            String[] e = expected.split("\n", -1);
            String[] a = actual.split("\n", -1);
            int n = Math.min(e.length, a.length);
            for (int i = 0; i < n; i++) {
                if (!e[i].equals(a[i])) {
                    return String.format("golden output of '%s' differs at line %d:%n  expected: %s%n  actual:   %s%n"
                            + "(a deliberate change: regenerate with CCSIM_GOLDEN_UPDATE=1 and commit the files on their own)",
                            name, i + 1, e[i], a[i]);
                }
            }
            return String.format("golden output of '%s' has %d lines, expected %d", name, a.length, e.length);
        }
    }
}
