package io.ccsim.algorithms.profile;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** Validation helpers shared by the profile records. */
final class Profiles {
    private Profiles() {}

    static void requireNonNegative(double v, String name) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(name + " must be finite and >= 0, got " + v);
        }
    }

    static void requirePositive(double v, String name) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(name + " must be finite and > 0, got " + v);
        }
    }

    static void requireFraction(double v, String name) {
        if (!(v > 0 && v <= 1)) {
            throw new IllegalArgumentException(name + " must be in (0, 1], got " + v);
        }
    }

    /** {@code v} in [0, 1]; {@code meaning} says what the ends mean, for the error. */
    static void requireUnitInterval(double v, String name, String meaning) {
        if (!(v >= 0 && v <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1] (" + meaning + "), got " + v);
        }
    }

    static Map<LinkClass, Double> linkMap(double nvlink, double pcie, double net) {
        EnumMap<LinkClass, Double> m = new EnumMap<>(LinkClass.class);
        m.put(LinkClass.NVLINK, nvlink);
        m.put(LinkClass.PCIE, pcie);
        m.put(LinkClass.NET, net);
        return m;
    }

    /** Copies a per-link-class map, requiring every class and finite non-negative values. */
    static Map<LinkClass, Double> completeLinkMap(Map<LinkClass, Double> m, String name) {
        EnumMap<LinkClass, Double> copy = new EnumMap<>(LinkClass.class);
        for (LinkClass c : LinkClass.values()) {
            Double v = m.get(c);
            if (v == null) {
                throw new IllegalArgumentException(name + " lacks link class '" + c.jsonName()
                        + "'; all of nvlink, pcie, net are required");
            }
            requireNonNegative(v, name + "." + c.jsonName());
            copy.put(c, v);
        }
        return Collections.unmodifiableMap(copy);
    }
}
