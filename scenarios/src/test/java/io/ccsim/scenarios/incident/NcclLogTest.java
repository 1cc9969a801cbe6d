package io.ccsim.scenarios.incident;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NcclLogTest {

    @Test
    void readsInitGraphAndTransportsOfAHealthyRank() throws Exception {
        String text = Real.text("healthy/nccl_rank0.log");
        assertThat(NcclLog.is(text)).isTrue();
        NcclLog l = NcclLog.read("nccl_rank0.log", -1, text);
        // line 17: ncclCommInitRankConfig comm 0x39fa7590 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 60 ... Init START
        assertThat(l.rank()).isZero();
        assertThat(l.nranks()).isEqualTo(2);
        assertThat(l.cudaDev()).isZero();
        assertThat(l.busId()).isEqualTo("60");
        assertThat(l.host()).isEqualTo("vm");
        assertThat(l.version()).isEqualTo("2.28.9+cuda13.0");
        assertThat(l.initStart().number()).isEqualTo(17);
        assertThat(l.initDone().number()).isEqualTo(178);
        assertThat(l.env()).containsEntry("NCCL_NVLS_ENABLE", "0");
        assertThat(l.transports()).containsExactly("P2P/CUMEM");
        assertThat(l.graphLines()).isGreaterThanOrEqualTo(24 + 24);   // 24 channels: their rings and their P2P hops
        assertThat(l.warns()).isEmpty();
    }

    @Test
    void aRankWhoseBootstrapFoundNoInterfaceTakesItsRankFromTheFileName() throws Exception {
        NcclLog l = NcclLog.read("nccl_rank1.log", 1, Real.text("ifname/nccl_rank1.log"));
        assertThat(l.rank()).isEqualTo(1);
        assertThat(l.initStart()).isNull();
        assertThat(l.env()).containsEntry("NCCL_SOCKET_IFNAME", "ens99");
        assertThat(l.warns()).singleElement().satisfies(w -> {
            assertThat(w.number()).isEqualTo(6);
            assertThat(w.text()).endsWith("bootstrap.cc:114 NCCL WARN Bootstrap : no socket interface found");
        });
        assertThat(l.cudaDev()).isEqualTo(1);
    }

    @Test
    void xidMentionsAreKept() {
        String text = "host:1:1 [3] NCCL INFO NCCL version 2.28.9\n"
                + "[12.0] NVRM: Xid (PCI:0000:9b:00): 79, pid=1234, GPU has fallen off the bus.\n"
                + "host:1:1 [3] NCCL INFO comm 0x1 rank 3 nranks 8 cudaDev 3 busId 9b000 - Init COMPLETE\n";
        NcclLog l = NcclLog.read("n.log", -1, text);
        assertThat(l.xids()).extracting(LogLine::number).containsExactly(2);
        assertThat(l.rank()).isEqualTo(3);
        assertThat(l.initDone().number()).isEqualTo(3);
    }
}
