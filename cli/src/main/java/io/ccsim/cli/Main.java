package io.ccsim.cli;

/** Entry point of the {@code ccsim} command (placeholder until the topology command lands). */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.out.println("ccsim");
    }
}
