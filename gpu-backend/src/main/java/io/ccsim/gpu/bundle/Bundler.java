package io.ccsim.gpu.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * {@code ccsim bundle --out DIR}: a self-contained folder that runs ccsim on a Linux x86-64 GPU host that has
 * only an NVIDIA driver (no Java, no CUDA toolkit):
 * <pre>
 * DIR/ccsim             launcher script (sh): runs the main class given to write with its arguments
 * DIR/runtime/          jlinked Java runtime: java.base, java.logging (JCuda logs through it),
 *                       jdk.unsupported (gson); --strip-debug --no-header-files --no-man-pages --compress
 * DIR/jars/             this JVM's class path: jars copied, class directories packed as jars
 *                       (JCuda's natives jar left out: it carries 26 MB of libraries we do not load)
 * DIR/lib/              libJCudaDriver-*.so from the natives jar (or from a shaded jar that contains it);
 *                       JCuda finds it on java.library.path first
 * </pre>
 * java.desktop is not linked (jfreechart charts need it): {@code validate --chart} does not run from a bundle.
 * The runtime is linked from the running JDK's jmods (Java 17 here, glibc 2.17+ on the target).
 */
public final class Bundler {
    /** Modules of the bundled runtime. */
    static final List<String> MODULES = List.of("java.base", "java.logging", "jdk.unsupported");
    /** The launcher script's resource (sh), its main class written as {@code @MAIN_CLASS@}. */
    static final String LAUNCHER = "/io/ccsim/gpu/bundle/launcher.sh";
    private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*");
    /** Size budget of a bundle, bytes. */
    public static final long MAX_BYTES = 64L << 20;

    private Bundler() { }

    /** Whether this JVM can link a runtime (jlink tool and the JDK's jmods present). */
    public static Optional<String> unavailableReason() {
        if (ToolProvider.findFirst("jlink").isEmpty()) return Optional.of("jlink is not available in this Java runtime; run ccsim with a JDK");
        Path jmods = Path.of(System.getProperty("java.home"), "jmods");
        if (!Files.isDirectory(jmods)) return Optional.of("the JDK at " + System.getProperty("java.home") + " has no jmods/ to link from");
        return Optional.empty();
    }

    /**
     * Writes the bundle into {@code outDir} (created; must not exist or be empty) from this JVM's class path; its
     * launcher {@code outDir/ccsim} runs {@code mainClass} with the launcher's arguments.
     *
     * @param mainClass the fully qualified class whose {@code main} the launcher runs
     * @return the bundle's total size in bytes
     * @throws IllegalArgumentException if {@code outDir} is not empty or {@code mainClass} is not a class name
     * @throws IllegalStateException    if jlink or the JCuda driver library cannot be found, or the bundle
     *                                  exceeds {@link #MAX_BYTES}
     * @throws IOException              if a file cannot be read or written
     */
    public static long write(Path outDir, String mainClass) throws IOException {
        return write(outDir, classPath(), mainClass);
    }

    /** As {@link #write(Path, String)} with an explicit class path (jars and class directories). */
    static long write(Path outDir, List<Path> classPath, String mainClass) throws IOException {
        if (!CLASS_NAME.matcher(mainClass).matches()) {
            throw new IllegalArgumentException("main class '" + mainClass + "' is not a fully qualified class name");
        }
        Optional<String> why = unavailableReason();
        if (why.isPresent()) throw new IllegalStateException(why.get());
        requireEmpty(outDir);
        Files.createDirectories(outDir);
        Path jars = Files.createDirectories(outDir.resolve("jars"));
        Path lib = Files.createDirectories(outDir.resolve("lib"));
        if (!copyClassPath(classPath, jars, lib)) {
            throw new IllegalStateException("no jcuda-natives jar with lib/libJCudaDriver-*-linux-x86_64.so on the class path " + classPath);
        }
        jlink(outDir.resolve("runtime"));
        writeLauncher(outDir.resolve("ccsim"), mainClass);
        long size = sizeOf(outDir);
        if (size > MAX_BYTES) {
            throw new IllegalStateException("bundle in " + outDir + " is " + size + " bytes, over the " + MAX_BYTES + " byte budget");
        }
        return size;
    }

    private static void requireEmpty(Path outDir) throws IOException {
        if (Files.exists(outDir)) {
            try (Stream<Path> s = Files.list(outDir)) {
                if (s.findAny().isPresent()) throw new IllegalArgumentException("bundle directory " + outDir + " is not empty");
            }
        }
    }

    /**
     * Copies the class path into {@code jars} (class directories packed as jars, jars without their native
     * libraries) and JCuda's driver library into {@code lib}; returns whether a driver library was found.
     */
    private static boolean copyClassPath(List<Path> classPath, Path jars, Path lib) throws IOException {
        boolean haveDriverLib = false;
        for (Path p : classPath) {
            String name = p.getFileName().toString();
            if (Files.isDirectory(p)) {
                if (!hasFiles(p)) continue;
                jarDirectory(p, jars.resolve(dirJarName(p)));
            } else if (name.startsWith("jcuda-natives")) {
                haveDriverLib |= extractDriverLib(p, lib);
            } else if (name.endsWith(".jar")) {
                // a shaded jar (the cli's ccsim.jar) may carry JCuda's natives inside: the driver library goes to
                // lib/, the rest (NVRTC, the runtime, the PTX compiler: ~26 MB ccsim never loads) is left out
                haveDriverLib |= extractDriverLib(p, lib);
                copyWithoutNatives(p, jars.resolve(name));
            }
        }
        return haveDriverLib;
    }

    /** Writes the launcher script ({@link #launcherText}), executable. */
    private static void writeLauncher(Path launcher, String mainClass) throws IOException {
        Files.writeString(launcher, launcherText(mainClass), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /**
     * The launcher script ({@link #LAUNCHER} with {@code mainClass}): the bundled runtime runs {@code mainClass}
     * over the jars, JCuda's driver library on java.library.path, {@code CCSIM_JAVA_OPTS} (default -Xss8m) passed
     * to the JVM.
     */
    static String launcherText(String mainClass) throws IOException {
        try (InputStream in = Bundler.class.getResourceAsStream(LAUNCHER)) {
            if (in == null) throw new IllegalStateException("launcher resource missing: " + LAUNCHER);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("@MAIN_CLASS@", mainClass);
        }
    }

    /** This JVM's class path entries. */
    static List<Path> classPath() {
        List<Path> out = new ArrayList<>();
        for (String s : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!s.isBlank()) out.add(Path.of(s));
        }
        return out;
    }

    private static String dirJarName(Path dir) {
        // .../<module>/target/classes -> <module>.jar
        Path parent = dir.getParent();
        if (parent != null && parent.getFileName().toString().equals("target") && parent.getParent() != null) {
            return parent.getParent().getFileName() + "-" + dir.getFileName() + ".jar";
        }
        return dir.getFileName() + ".jar";
    }

    private static boolean hasFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.anyMatch(Files::isRegularFile);
        }
    }

    private static void jarDirectory(Path dir, Path jar) throws IOException {
        try (OutputStream os = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(os)) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(dir)) {
                files = s.filter(Files::isRegularFile).sorted(Comparator.comparing(Path::toString)).toList();
            }
            for (Path f : files) {
                ZipEntry e = new ZipEntry(dir.relativize(f).toString().replace('\\', '/'));
                e.setTime(0);
                zip.putNextEntry(e);
                Files.copy(f, zip);
                zip.closeEntry();
            }
        }
    }

    /** Whether a jar entry is a native library (JCuda's natives, for every platform). */
    static boolean isNativeLibrary(String entry) {
        String n = entry.toLowerCase(java.util.Locale.ROOT);
        return n.endsWith(".so") || n.endsWith(".dll") || n.endsWith(".dylib") || n.endsWith(".jnilib");
    }

    /** Copies a jar entry by entry, leaving out native libraries ({@link #isNativeLibrary}). */
    static void copyWithoutNatives(Path from, Path to) throws IOException {
        try (ZipFile z = new ZipFile(from.toFile()); OutputStream os = Files.newOutputStream(to); ZipOutputStream zip = new ZipOutputStream(os)) {
            var it = z.entries();
            while (it.hasMoreElements()) {
                ZipEntry e = it.nextElement();
                if (isNativeLibrary(e.getName())) continue;
                ZipEntry c = new ZipEntry(e.getName());
                c.setTime(e.getTime());
                zip.putNextEntry(c);
                try (InputStream in = z.getInputStream(e)) {
                    in.transferTo(zip);
                }
                zip.closeEntry();
            }
        }
    }

    private static boolean extractDriverLib(Path nativesJar, Path lib) throws IOException {
        boolean found = false;
        try (ZipFile z = new ZipFile(nativesJar.toFile())) {
            var it = z.entries();
            while (it.hasMoreElements()) {
                ZipEntry e = it.nextElement();
                String n = e.getName();
                if (n.startsWith("lib/libJCudaDriver-") && n.endsWith(".so")) {
                    try (InputStream in = z.getInputStream(e)) {
                        Files.copy(in, lib.resolve(n.substring(4)), StandardCopyOption.REPLACE_EXISTING);
                    }
                    found = true;
                }
            }
        }
        return found;
    }

    private static void jlink(Path runtime) {
        ToolProvider jlink = ToolProvider.findFirst("jlink").orElseThrow();
        StringWriter out = new StringWriter();
        PrintWriter pw = new PrintWriter(out);
        int rc = jlink.run(pw, pw, "--add-modules", String.join(",", MODULES), "--strip-debug", "--no-header-files",
                "--no-man-pages", "--compress=2", "--output", runtime.toString());
        pw.flush();
        if (rc != 0) throw new IllegalStateException("jlink failed (exit " + rc + "): " + out);
    }

    static long sizeOf(Path dir) throws IOException {
        long[] total = {0};
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                total[0] += attrs.size();
                return FileVisitResult.CONTINUE;
            }
        });
        return total[0];
    }
}
