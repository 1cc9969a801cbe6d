package io.ccsim.algorithms.cpu;

import io.ccsim.algorithms.Protocol;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class WireCodecTest {

    @Test
    void roundTripsEveryWidthAndCountWithLineSizedWireFootprint() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (Protocol p : Protocol.values()) {
            for (int elt : new int[] {1, 2, 4, 8}) {
                WireCodec codec = new WireCodec(p, elt);
                long mask = elt == 8 ? -1L : (1L << (8 * elt)) - 1;
                for (int cnt : new int[] {0, 1, 3, 15, 16, 17, 121, 1000}) {
                    long[] v = new long[cnt];
                    for (int i = 0; i < cnt; i++) v[i] = rnd.nextLong() & mask;
                    long[] wire = new long[codec.wireLongs(cnt) + 1];
                    codec.encode(v, cnt, 42, wire);
                    long[] back = new long[cnt];
                    assertThat(codec.decode(wire, cnt, 42, back)).isEqualTo(-1);
                    assertThat(back).containsExactly(v);
                    // LL: ⌈bytes/4⌉ 8-byte units; LL128 ⌈bytes/120⌉ 128-byte lines; Simple ⌈bytes/8⌉ words
                    if (p != Protocol.SIMPLE) {
                        assertThat(8L * codec.wireLongs(cnt)).isEqualTo(p.wireBytes((long) cnt * elt));
                    }
                }
            }
        }
    }

    @Test
    void aStaleFlagIsReportedWithItsLine() {
        WireCodec ll = new WireCodec(Protocol.LL, 4);
        long[] v = {1, 2, 3};
        long[] wire = new long[3];
        ll.encode(v, 3, 7, wire);
        wire[2] = (6L << 32) | (wire[2] & 0xFFFF_FFFFL); // last unit still holds the previous step's flag
        assertThat(ll.decode(wire, 3, 7, new long[3])).isEqualTo(2);
        WireCodec ll128 = new WireCodec(Protocol.LL128, 8);
        long[] w = new long[32];
        ll128.encode(new long[20], 20, 9, w);
        assertThat(ll128.decode(w, 20, 10, new long[20])).isEqualTo(0);
    }
}
