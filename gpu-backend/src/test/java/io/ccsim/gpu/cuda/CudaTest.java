package io.ccsim.gpu.cuda;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** The one-line "no CUDA device found" reason, the same however often it is asked for. */
class CudaTest {

    @Test
    void aLaterAttemptNamesTheFirstLoadFailure() {
        UnsatisfiedLinkError first = new UnsatisfiedLinkError("Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\"\n"
                + "Operating system name: Linux");
        assertThat(Cuda.loadFailure(first)).isEqualTo("Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\"");
        // what the JVM throws on the next use of the class, its cause naming the first error
        NoClassDefFoundError later = new NoClassDefFoundError("Could not initialize class jcuda.driver.JCudaDriver");
        later.initCause(new ExceptionInInitializerError("Exception java.lang.UnsatisfiedLinkError: " + first.getMessage()
                + " [in thread \"main\"]"));
        assertThat(Cuda.loadFailure(later)).isEqualTo(Cuda.loadFailure(first));
        NoClassDefFoundError oneLine = new NoClassDefFoundError("Could not initialize class jcuda.driver.JCudaDriver");
        oneLine.initCause(new ExceptionInInitializerError("Exception java.lang.UnsatisfiedLinkError: no libcuda [in thread \"main\"]"));
        assertThat(Cuda.loadFailure(oneLine)).isEqualTo("no libcuda");
        // without that cause (older JDKs) the error's own first line
        assertThat(Cuda.loadFailure(new NoClassDefFoundError("Could not initialize class jcuda.driver.JCudaDriver")))
                .isEqualTo("Could not initialize class jcuda.driver.JCudaDriver");
    }

    @Test
    void withoutCudaTheReasonIsOneLineAndStable() {
        assumeFalse(Cuda.available(), "a CUDA device is present");
        String first = Cuda.unavailableReason();
        assertThat(first).startsWith(Cuda.NO_DEVICE).doesNotContain("\n");
        assertThat(Cuda.unavailableReason()).isEqualTo(first);
    }
}
