package io.ccsim.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What this ccsim was built from: the Maven project version and {@code git describe --always --dirty --tags} of the
 * tree at build time, both written into {@code io/ccsim/cli/build.properties} by the build's resource filtering.
 *
 * @param version  the Maven project version ({@code 0.1.0-SNAPSHOT}); {@code dev} where the resource was not filtered
 *                 (classes compiled outside Maven)
 * @param describe {@code git describe}'s output ({@code 00f1ed4-dirty}, {@code v1.0-3-g00f1ed4}); empty where the build
 *                 had no git or no repository
 */
record BuildInfo(String version, String describe) {
    private static final String RESOURCE = "/io/ccsim/cli/build.properties";

    /** The build of the running classes. */
    static BuildInfo current() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
        return new BuildInfo(filtered(p.getProperty("version"), "dev"), filtered(p.getProperty("describe"), ""));
    }

    /** {@code value}, or {@code otherwise} where it is missing, blank or an unfiltered {@code ${...}} placeholder. */
    private static String filtered(String value, String otherwise) {
        if (value == null || value.isBlank() || value.contains("${")) return otherwise;
        return value.trim();
    }

    /** {@code 0.1.0-SNAPSHOT (git 00f1ed4-dirty)}, or the version alone without a git description. */
    String label() {
        return describe.isEmpty() ? version : version + " (git " + describe + ")";
    }
}
