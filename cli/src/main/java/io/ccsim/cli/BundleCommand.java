package io.ccsim.cli;

import io.ccsim.gpu.bundle.Bundler;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ccsim bundle --out DIR}: {@link Bundler#write(Path, String)} — a folder with a jlinked Java runtime, ccsim's jars
 * and JCuda's driver library that runs on a Linux x86-64 GPU host with only the NVIDIA driver; its launcher
 * {@code DIR/ccsim} runs this command line ({@link Main}). Needs a JDK (jlink).
 */
@Command(name = "bundle", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Write a self-contained ccsim for a GPU host without Java (Linux x86-64, NVIDIA driver only).",
                "Needs to run on a JDK (jlink); the folder is under 64 MiB."})
final class BundleCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "folder to create (must not exist or be empty)")
    Path out;

    @Override
    public Integer call() {
        long size;
        try {
            size = Bundler.write(out, Main.class.getName());
        } catch (IOException e) {
            throw new UserException("cannot write bundle to " + out + ": " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new UserException(e.getMessage(), e);
        }
        PrintWriter o = spec.commandLine().getOut();
        o.printf(Locale.ROOT, "bundle written to %s: %d bytes (%.1f MiB)%n", out, size, size / 1048576.0);
        o.println("copy it to a Linux x86-64 host with the NVIDIA driver and run, for example:");
        o.println("  " + out.resolve("ccsim") + " calibrate --gpus 4 --out profile.json");
        o.println("  " + out.resolve("ccsim") + " perf --backend cuda --gpus 4 --op all_reduce -b 1K -e 512M --format json > measured.json");
        o.println("then chart on a workstation: ccsim validate --profile profile.json --measured measured.json --chart fidelity.png");
        o.flush();
        return 0;
    }
}
