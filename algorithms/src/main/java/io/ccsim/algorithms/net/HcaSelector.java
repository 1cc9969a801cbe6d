package io.ccsim.algorithms.net;

import java.util.ArrayList;
import java.util.List;

/**
 * NCCL_IB_HCA: which NICs NCCL may use (src/misc/utils.cc parseStringList and matchIfList, NVIDIA/nccl
 * v2.28.9; docs env.rst "NCCL_IB_HCA").
 *
 * <p>The value is a comma-separated list of {@code name[:port]}. A leading {@code ^} makes it an exclude list; a
 * leading {@code =} (after any {@code ^}) makes names match exactly, otherwise a name matches every device whose
 * name starts with it ({@code mlx5} matches {@code mlx5_0} .. {@code mlx5_7}, and {@code mlx5_1} also
 * {@code mlx5_10}). A port restricts the entry to that port; none matches every port. An empty or unset value
 * selects every NIC.
 *
 * <p>ccsim's NICs carry their device name ({@code device} attribute, {@code mlx5_<k>} for the k-th NIC of a host
 * in the catalog boards) and have one port, port 1.
 */
public final class HcaSelector {
    /** Every NIC. */
    public static final HcaSelector ALL = new HcaSelector("", false, false, List.of());

    private final String spec;
    private final boolean exclude;
    private final boolean exact;
    private final List<Entry> entries;

    private record Entry(String name, int port) { }

    private HcaSelector(String spec, boolean exclude, boolean exact, List<Entry> entries) {
        this.spec = spec;
        this.exclude = exclude;
        this.exact = exact;
        this.entries = entries;
    }

    /**
     * Parses an NCCL_IB_HCA value.
     *
     * @throws IllegalArgumentException for an empty name, or a port that is not a positive integer
     */
    public static HcaSelector parse(String value) {
        if (value == null || value.isEmpty()) return ALL;
        String s = value;
        boolean exclude = s.startsWith("^");
        if (exclude) s = s.substring(1);
        boolean exact = s.startsWith("=");
        if (exact) s = s.substring(1);
        List<Entry> entries = new ArrayList<>();
        for (String item : s.split(",", -1)) {
            if (item.isEmpty()) continue;
            int colon = item.indexOf(':');
            String name = colon < 0 ? item : item.substring(0, colon);
            int port = -1;
            if (colon >= 0) {
                String p = item.substring(colon + 1);
                if (p.isEmpty() || !p.chars().allMatch(Character::isDigit) || p.length() > 4 || Integer.parseInt(p) < 1) {
                    throw new IllegalArgumentException("port \"" + p + "\" of \"" + item + "\" is not a port number (1, 2, ...)");
                }
                port = Integer.parseInt(p);
            }
            if (name.isEmpty()) throw new IllegalArgumentException("entry \"" + item + "\" has no device name");
            entries.add(new Entry(name, port));
        }
        return new HcaSelector(value, exclude, exact, List.copyOf(entries));
    }

    /** Whether port {@code port} of device {@code device} may be used. */
    public boolean selects(String device, int port) {
        if (entries.isEmpty()) return true; // NCCL matchIfList: an empty list matches everything
        boolean listed = false;
        for (Entry e : entries) {
            boolean name = exact ? device.equals(e.name) : device.startsWith(e.name);
            if (name && (e.port < 0 || e.port == port)) {
                listed = true;
                break;
            }
        }
        return listed != exclude;
    }

    /** The value as given ("" for every NIC). */
    public String spec() { return spec; }

    @Override
    public boolean equals(Object o) { return o instanceof HcaSelector h && h.spec.equals(spec); }

    @Override
    public int hashCode() { return spec.hashCode(); }

    @Override
    public String toString() { return spec.isEmpty() ? "all NICs" : "NCCL_IB_HCA=" + spec; }
}
