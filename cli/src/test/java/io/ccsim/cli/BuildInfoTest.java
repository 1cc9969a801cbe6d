package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The version the build wrote: the parent pom's version, and git's description of the tree where git is there. */
class BuildInfoTest {
    @Test
    void theVersionIsTheProjectVersion() throws IOException {
        String pom = Files.readString(Path.of("..", "pom.xml"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("<artifactId>ccsim-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertThat(m.find()).as("the parent pom's version").isTrue();
        assertThat(BuildInfo.current().version()).isEqualTo(m.group(1));
    }

    @Test
    void theDescriptionIsGitsForThisTree() throws Exception {
        String git = gitDescribe();
        BuildInfo b = BuildInfo.current();
        if (git.isEmpty()) {
            assertThat(b.describe()).isEmpty();
            assertThat(b.label()).isEqualTo(b.version());
        } else {
            // the build ran on the same commit; whether the tree was dirty may have changed since
            assertThat(b.describe().replaceFirst("-dirty$", "")).isEqualTo(git);
            assertThat(b.label()).isEqualTo(b.version() + " (git " + b.describe() + ")");
        }
    }

    @Test
    void versionOptionPrintsTheLabel() {
        StringWriter out = new StringWriter();
        int code = Main.execute(new String[] {"--version"}, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), Map.of());
        assertThat(code).isZero();
        assertThat(out.toString()).isEqualTo("ccsim " + BuildInfo.current().label() + System.lineSeparator());
    }

    /** {@code git describe --always --tags} here, or empty where git or the repository is missing. */
    private static String gitDescribe() throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("git", "describe", "--always", "--tags").redirectErrorStream(false).start();
        } catch (IOException e) {
            return "";
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return p.exitValue() == 0 ? out : "";
    }
}
