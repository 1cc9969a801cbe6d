package io.ccsim.fuzz;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * The property every reader of user input must hold: on any input it returns a value, or throws an
 * {@link IllegalArgumentException} (the type of every ccsim input error) whose message is one line that starts where
 * the input came from and names no Java exception; never another exception, and never takes longer than
 * {@link #TIMEOUT} (a hang).
 */
final class Outcome {
    /** The most one try may take; ccsim's readers take milliseconds, a loaded CI machine 100 times that. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** A Java exception or error name: a qualified class name, or a word ending in Exception or Error. */
    private static final Pattern JAVA_NAME = Pattern.compile("\\b(java|javax|com\\.google|sun)\\.[a-z]|\\b[A-Z]\\w*(Exception|Error)\\b");

    private Outcome() {}

    /**
     * Runs {@code read} on {@code executor} and fails, naming {@code what} (the seed and the input), unless it
     * returns or throws a clear error starting with {@code prefix}.
     */
    static void check(ExecutorService executor, String what, String prefix, Runnable read) {
        check(executor, what, prefix, read, TIMEOUT);
    }

    /** As {@link #check(ExecutorService, String, String, Runnable)} with another time limit. */
    static void check(ExecutorService executor, String what, String prefix, Runnable read, Duration timeout) {
        Future<?> f = executor.submit(read);
        try {
            f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            fail(what + ": no result within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(what + ": interrupted");
        } catch (ExecutionException e) {
            Throwable t = e.getCause();
            if (!(t instanceof IllegalArgumentException) || t.getClass() == NumberFormatException.class) {
                fail(what + ": threw " + t, t);
            }
            String m = t.getMessage();
            if (m == null || m.isBlank() || m.contains("\n") || !m.startsWith(prefix) || JAVA_NAME.matcher(m).find()) {
                fail(what + ": unclear error: " + m, t);
            }
        }
    }
}
