package io.ccsim.gpu.bundle;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The bundle is complete and under 64 MiB (skips where this JVM cannot jlink). That its launcher runs ccsim on a
 * host without a GPU is checked in cli, whose class path has the main class.
 */
class BundlerTest {

    @Test
    void bundleHasRuntimeJarsDriverLibraryAndLauncherUnderBudget(@TempDir Path tmp) throws Exception {
        assumeThat(Bundler.unavailableReason()).as("jlink").isEmpty();
        // the module's runtime class path: leave the test frameworks out
        List<Path> cp = Bundler.classPath().stream()
                .filter(p -> !p.toString().matches(".*(junit|assertj|opentest4j|apiguardian|byte-buddy|test-classes|surefire).*"))
                .collect(Collectors.toList());
        Path out = tmp.resolve("bundle");
        long size = Bundler.write(out, cp, "io.example.Main");
        assertThat(size).isLessThan(Bundler.MAX_BYTES).isEqualTo(Bundler.sizeOf(out));
        assertThat(out.resolve("runtime/bin/java")).isExecutable();
        assertThat(out.resolve("ccsim")).isExecutable();
        assertThat(Files.readString(out.resolve("ccsim"))).isEqualTo(Bundler.launcherText("io.example.Main"))
                .contains("-Djava.library.path=\"$here/lib\"");
        try (var s = Files.list(out.resolve("lib"))) {
            assertThat(s.map(p -> p.getFileName().toString())).anyMatch(n -> n.matches("libJCudaDriver-.*-linux-x86_64\\.so"));
        }
        try (var s = Files.list(out.resolve("jars"))) {
            List<String> jars = s.map(p -> p.getFileName().toString()).collect(Collectors.toList());
            assertThat(jars).anyMatch(n -> n.startsWith("gpu-backend")).anyMatch(n -> n.startsWith("jcuda-12"))
                    .noneMatch(n -> n.startsWith("jcuda-natives"));
        }
        String release = Files.readString(out.resolve("runtime/release"));
        for (String m : Bundler.MODULES) assertThat(release).contains(m);
        assertThat(release).doesNotContain("java.desktop");
    }

    @Test
    void theLauncherRunsTheGivenMainClassOverTheJarsWithTheDriverLibrary() throws Exception {
        assertThat(Bundler.launcherText("io.ccsim.cli.Main")).isEqualTo(String.join("\n",
                "#!/bin/sh",
                "# ccsim bundle launcher: the jlinked runtime, the jars, JCuda's driver library. Needs only the NVIDIA driver.",
                "here=\"$(cd \"$(dirname \"$0\")\" && pwd)\"",
                "exec \"$here/runtime/bin/java\" ${CCSIM_JAVA_OPTS:--Xss8m} -Djava.library.path=\"$here/lib\" \\",
                "  -cp \"$here/jars/*\" io.ccsim.cli.Main \"$@\"",
                ""));
        assertThatThrownBy(() -> Bundler.write(Path.of("unused"), List.of(), "x; rm -rf /"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a fully qualified class name");
    }

    @Test
    void aShadedJarLosesItsNativeLibrariesButKeepsItsClasses(@TempDir Path tmp) throws Exception {
        // a shaded jar like cli/target/ccsim.jar: classes plus JCuda's natives for several platforms
        Path jar = tmp.resolve("shaded.jar");
        try (var zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(jar))) {
            for (String n : List.of("io/ccsim/X.class", "META-INF/MANIFEST.MF", "lib/libJCudaDriver-12.6.0-linux-x86_64.so",
                    "lib/libJNvrtc-12.6.0-linux-x86_64.so", "lib/JCudaRuntime-12.6.0-windows-x86_64.dll", "lib/libJCudaDriver-apple.dylib")) {
                zip.putNextEntry(new java.util.zip.ZipEntry(n));
                zip.write(n.getBytes());
                zip.closeEntry();
            }
        }
        Path copy = tmp.resolve("copy.jar");
        Bundler.copyWithoutNatives(jar, copy);
        try (var z = new java.util.zip.ZipFile(copy.toFile())) {
            List<String> names = z.stream().map(java.util.zip.ZipEntry::getName).collect(Collectors.toList());
            assertThat(names).containsExactly("io/ccsim/X.class", "META-INF/MANIFEST.MF");
            assertThat(new String(z.getInputStream(z.getEntry("io/ccsim/X.class")).readAllBytes())).isEqualTo("io/ccsim/X.class");
        }
        assertThat(Bundler.isNativeLibrary("lib/libJCudaDriver-12.6.0-linux-x86_64.so")).isTrue();
        assertThat(Bundler.isNativeLibrary("io/ccsim/gpu/ccsim_prims_f32.ptx")).isFalse();
    }
}
