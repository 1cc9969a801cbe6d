package io.ccsim.gpu;

import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.study.DeviceStudies;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The device studies as a program of their own, {@code DeviceRunner probe|matrix|timing|fidelity|skew|calibrate|full
 * OUTDIR} ({@link DeviceStudies}): progress on stdout, exit status 2 without CUDA ("no CUDA device found: ...").
 */
public final class DeviceRunner {
    private DeviceRunner() { }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: DeviceRunner probe|matrix|timing|fidelity|skew|calibrate|full OUTDIR");
            System.exit(64);
        }
        String why = Cuda.unavailableReason();
        if (why != null) {
            System.err.println(why);
            System.exit(2);
        }
        Path out = Files.createDirectories(Path.of(args[1]));
        int nGpu = Cuda.deviceCount();
        int[] all = new int[nGpu];
        for (int i = 0; i < nGpu; i++) all[i] = i;
        log("devices: " + nGpu + " x " + Cuda.deviceName(0));
        DeviceStudies studies = new DeviceStudies(all, DeviceRunner::log);
        switch (args[0]) {
            case "probe": studies.probe(out); break;
            case "matrix": studies.matrix(out); break;
            case "timing": studies.timing(out); break;
            case "fidelity": studies.fidelity(out); break;
            case "skew": studies.skew(out); break;
            case "calibrate": studies.calibrate(out); break;
            case "full": studies.full(out); break;
            default:
                System.err.println("unknown mode '" + args[0] + "'; valid: probe, matrix, timing, fidelity, skew, calibrate, full");
                System.exit(64);
        }
    }

    static void log(String s) {
        System.out.println(s);
        System.out.flush();
    }
}
