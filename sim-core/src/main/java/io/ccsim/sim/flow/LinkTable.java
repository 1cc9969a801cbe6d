package io.ccsim.sim.flow;

import io.ccsim.sim.Sharing;
import java.util.Arrays;
import java.util.Objects;

/**
 * The network's links: per link (index 0, 1, ... in order of addition) its name, capacity C (bytes/s, finite,
 * {@code >= 0}; 0 = down), {@link Sharing} and duplex efficiency e (in (0, 1], 1 = none), and the constraints that
 * stand for it. A route element (hop) is {@code link << 1 | reverse}.
 *
 * <p>Contract: {@link #add} and the {@code check*} methods validate and throw {@link IllegalArgumentException}
 * naming the link and what is valid; the other accessors take a valid index and do not check it. Changing a
 * capacity or an efficiency here changes no constraint: the network re-derives them ({@link #directionCapacity}).
 */
final class LinkTable {
    /*
     * Constraints per sharing: FULL_DUPLEX one per direction (id = hop), SHARED one for both directions, FAT_PIPE one
     * that is not shared (each flow is bounded by C on its own); the latter two have id link << 1.
     *
     * Duplex efficiency. While the opposite direction of a FULL_DUPLEX link carries a flow in its bandwidth phase, a
     * direction's capacity is C x e instead of C: with traffic one way only a direction gets C, with both directions
     * busy each gets at most C x e. The penalty is a mode of the link (both ways at once or not), not a joint
     * constraint over the two directions' rates: a joint constraint fwd + rev <= 2 C e agrees with it whenever both
     * directions are saturated or one is idle (all that measurements tell apart), but it couples every flow through a
     * GPU with every other (a ring's ranks then form one component, solved on every change, and the constraint flips
     * in and out as bursts come and go). Here a direction's capacity changes only when the opposite direction's
     * bandwidth-phase flow count goes 0 <-> 1, which re-solves that direction's component alone.
     */
    private String[] name = new String[16];
    private double[] capacity = new double[16];
    private Sharing[] sharing = new Sharing[16];
    private Constraint[] fwd = new Constraint[16];
    private Constraint[] rev = new Constraint[16];
    private double[] duplexEff = new double[16];
    private int count;

    /**
     * Adds a link with duplex efficiency 1 and its constraints.
     *
     * @param name                for messages, not null
     * @param capacityBytesPerSec finite, {@code >= 0}
     * @param sharing             not null
     * @return its index
     */
    int add(String name, double capacityBytesPerSec, Sharing sharing) {
        Objects.requireNonNull(name, "addLink: name must not be null");
        Objects.requireNonNull(sharing, "addLink: sharing must not be null for link '" + name + "'");
        checkCapacity("addLink '" + name + "'", capacityBytesPerSec);
        int l = count;
        if (l == this.name.length) {
            int n = l * 2;
            this.name = Arrays.copyOf(this.name, n);
            capacity = Arrays.copyOf(capacity, n);
            this.sharing = Arrays.copyOf(this.sharing, n);
            fwd = Arrays.copyOf(fwd, n);
            rev = Arrays.copyOf(rev, n);
            duplexEff = Arrays.copyOf(duplexEff, n);
        }
        this.name[l] = name;
        capacity[l] = capacityBytesPerSec;
        this.sharing[l] = sharing;
        duplexEff[l] = 1.0;
        switch (sharing) {
            case FULL_DUPLEX:
                fwd[l] = new Constraint(l, true, capacityBytesPerSec, l << 1);
                rev[l] = new Constraint(l, true, capacityBytesPerSec, (l << 1) | 1);
                break;
            case SHARED:
                fwd[l] = new Constraint(l, true, capacityBytesPerSec, -1);
                rev[l] = fwd[l];
                break;
            case FAT_PIPE:
                fwd[l] = new Constraint(l, false, capacityBytesPerSec, -1);
                rev[l] = fwd[l];
                break;
            default:
                throw new IllegalArgumentException("addLink: unknown sharing " + sharing);
        }
        count++;
        return l;
    }

    /** @throws IllegalArgumentException unless c is finite and {@code >= 0} ({@code where} names the call) */
    static void checkCapacity(String where, double c) {
        if (!(c >= 0) || Double.isInfinite(c)) {
            throw new IllegalArgumentException(where + ": capacity must be finite and >= 0 bytes/s, was " + c);
        }
    }

    /** @throws IllegalArgumentException unless {@code link} names a link ({@code where} names the call) */
    void check(String where, int link) {
        if (link < 0 || link >= count) {
            throw new IllegalArgumentException(where + ": link index " + link + " out of range; valid is 0.."
                    + (count - 1) + " (" + count + " links)");
        }
    }

    /**
     * @throws IllegalArgumentException unless {@code link} is FULL_DUPLEX and e is in (0, 1]
     */
    void checkDuplexEfficiency(int link, double e) {
        String where = "setDuplexEfficiency on link " + link + " '" + name[link] + "'";
        if (!(e > 0 && e <= 1)) {
            throw new IllegalArgumentException(where + ": efficiency must be in (0, 1], was " + e);
        }
        if (sharing[link] != Sharing.FULL_DUPLEX) {
            throw new IllegalArgumentException(where + ": only a FULL_DUPLEX link has a duplex efficiency; this one is "
                    + sharing[link]);
        }
    }

    /** @return the number of links */
    int count() {
        return count;
    }

    String name(int link) {
        return name[link];
    }

    Sharing sharing(int link) {
        return sharing[link];
    }

    /** @return the link's capacity C, bytes/s */
    double capacity(int link) {
        return capacity[link];
    }

    /** Sets C (validated by the caller); the constraints keep theirs until re-derived. */
    void setCapacity(int link, double bytesPerSec) {
        capacity[link] = bytesPerSec;
    }

    /** @return e, in (0, 1] */
    double duplexEfficiency(int link) {
        return duplexEff[link];
    }

    /** Sets e (validated by the caller); the constraints keep their capacities until re-derived. */
    void setDuplexEfficiency(int link, double e) {
        duplexEff[link] = e;
    }

    /** @return the constraint of the forward direction (the link's only one unless FULL_DUPLEX) */
    Constraint forward(int link) {
        return fwd[link];
    }

    /** @return the constraint of the reverse direction (the link's only one unless FULL_DUPLEX) */
    Constraint reverse(int link) {
        return rev[link];
    }

    /** @return the constraint of hop h */
    Constraint direction(int h) {
        return (h & 1) == 0 ? fwd[h >>> 1] : rev[h >>> 1];
    }

    /**
     * @return the capacity of hop h of a FULL_DUPLEX link now, bytes/s: C, times e while the opposite direction has
     * flows in their bandwidth phase (C for any other link)
     */
    double directionCapacity(int h) {
        int link = h >>> 1;
        double e = duplexEff[link];
        if (!(e < 1)) {
            return capacity[link];
        }
        Constraint opposite = (h & 1) == 0 ? rev[link] : fwd[link];
        return opposite.size > 0 ? capacity[link] * e : capacity[link];
    }

    /** @return the least capacity the link's constraints can have, bytes/s: C x e where a duplex limit applies, else C */
    double leastCapacity(int link) {
        return hasDuplexLimit(fwd[link]) ? capacity[link] * duplexEff[link] : capacity[link];
    }

    /** @return whether c is a FULL_DUPLEX direction whose opposite's capacity follows c's member count (e below 1) */
    boolean hasDuplexLimit(Constraint c) {
        return c.hop >= 0 && duplexEff[c.link] < 1;
    }
}
