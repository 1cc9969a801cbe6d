package io.ccsim.scenarios;

/** Prints a catalog scenario's text report (a development aid, not a test). */
final class Dump {
    public static void main(String[] a) {
        long t0 = System.nanoTime();
        ScenarioResult r = ScenarioRunner.runCatalog(a[0], a.length > 1 ? Long.parseLong(a[1]) : 1);
        System.out.println(r.toText());
        System.out.printf("wall %.3f s%n", (System.nanoTime() - t0) / 1e9);
        if (System.getenv("EVENTS") != null) for (RankEvent e : r.events()) System.out.println(Units.formatDuration(e.timePs()) + " r" + e.rank() + " " + e.kind() + " " + e.text());
    }
}
