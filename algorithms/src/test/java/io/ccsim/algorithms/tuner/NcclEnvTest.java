package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class NcclEnvTest {

    private static NcclEnv env(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return NcclEnv.parse(m);
    }

    private static NcclEnvException error(String... kv) {
        return catchThrowableOfType(NcclEnvException.class, () -> env(kv));
    }

    @Test
    void unsetMeansEverythingEnabledAndDefaults() {
        NcclEnv e = NcclEnv.empty();
        for (NcclFunc f : NcclFunc.values()) {
            for (Algorithm a : Algorithm.values()) assertThat(e.algoEnabled(f, a)).isTrue();
            for (Protocol p : Protocol.values()) assertThat(e.protoEnabled(f, p)).isTrue();
            assertThat(e.protoExplicit(f)).isFalse();
        }
        assertThat(e.algo()).isEmpty();
        assertThat(e.buffSizeBytes()).isEmpty();
        assertThat(e.minChannels()).isEmpty();
        assertThat(e.maxChannels()).isEmpty();
        assertThat(e.nThreads()).isEmpty();
        assertThat(e.p2pDisable()).isFalse();
        assertThat(e.nvlsEnable()).isEqualTo(2);
    }

    @Test
    void emptyValueCountsAsUnsetAsInNccl() {
        NcclEnv e = env("NCCL_ALGO", "", "NCCL_BUFFSIZE", "");
        assertThat(e.algo()).isEmpty();
        assertThat(e.algoEnabled(NcclFunc.ALL_REDUCE, Algorithm.TREE)).isTrue();
        assertThat(e.buffSizeBytes()).isEmpty();
    }

    @Test
    void plainListEnablesExactlyTheListedForAllFunctions() {
        NcclEnv e = env("NCCL_ALGO", "ring");
        for (NcclFunc f : NcclFunc.values()) {
            assertThat(e.algoEnabled(f, Algorithm.RING)).isTrue();
            assertThat(e.algoEnabled(f, Algorithm.TREE)).isFalse();
            assertThat(e.algoEnabled(f, Algorithm.NVLS)).isFalse();
        }
    }

    @Test
    void caseInsensitiveElementsAndPrefixes() {
        NcclEnv e = env("NCCL_ALGO", "ALLREDUCE:TrEe", "NCCL_PROTO", "aLLgAtHeR:simple,ll128");
        assertThat(e.algoEnabled(NcclFunc.ALL_REDUCE, Algorithm.TREE)).isTrue();
        assertThat(e.algoEnabled(NcclFunc.ALL_REDUCE, Algorithm.RING)).isFalse();
        assertThat(e.algoEnabled(NcclFunc.BROADCAST, Algorithm.RING)).isTrue();
        assertThat(e.protoEnabled(NcclFunc.ALL_GATHER, Protocol.LL)).isFalse();
        assertThat(e.protoEnabled(NcclFunc.ALL_GATHER, Protocol.LL128)).isTrue();
        assertThat(e.protoEnabled(NcclFunc.ALL_GATHER, Protocol.SIMPLE)).isTrue();
        assertThat(e.protoExplicit(NcclFunc.ALL_GATHER)).isTrue();
        assertThat(e.protoExplicit(NcclFunc.ALL_REDUCE)).isFalse();
    }

    @Test
    void caretExcludesTheListed() {
        NcclEnv e = env("NCCL_ALGO", "^ring");
        assertThat(e.algoEnabled(NcclFunc.ALL_REDUCE, Algorithm.RING)).isFalse();
        assertThat(e.algoEnabled(NcclFunc.ALL_REDUCE, Algorithm.TREE)).isTrue();
        assertThat(e.algoEnabled(NcclFunc.ALL_GATHER, Algorithm.PAT)).isTrue();
    }

    @Test
    void caretAloneEnablesAllAndEmptyListEnablesNone() {
        NcclEnv all = env("NCCL_PROTO", "allreduce:^");
        for (Protocol p : Protocol.values()) assertThat(all.protoEnabled(NcclFunc.ALL_REDUCE, p)).isTrue();
        assertThat(all.protoExplicit(NcclFunc.ALL_REDUCE)).isTrue();
        NcclEnv none = env("NCCL_PROTO", "allreduce:,");
        for (Protocol p : Protocol.values()) assertThat(none.protoEnabled(NcclFunc.ALL_REDUCE, p)).isFalse();
        assertThat(none.protoEnabled(NcclFunc.BROADCAST, Protocol.LL)).isTrue();
    }

    @Test
    void laterSectionsOverrideTheFirstForTheirFunction() {
        // NCCL's documented example (tuning.cc parseList comment, env.rst)
        NcclEnv e = env("NCCL_ALGO", "ring,collnetdirect;allreduce:tree,collnetdirect;broadcast:ring");
        assertThat(e.algoEnabled(NcclFunc.ALL_GATHER, Algorithm.RING)).isTrue();
        assertThat(e.algoEnabled(NcclFunc.ALL_GATHER, Algorithm.COLLNET_DIRECT)).isTrue();
        assertThat(e.algoEnabled(NcclFunc.ALL_GATHER, Algorithm.TREE)).isFalse();
        assertThat(e.algoEnabled(NcclFunc.ALL_REDUCE, Algorithm.TREE)).isTrue();
        assertThat(e.algoEnabled(NcclFunc.ALL_REDUCE, Algorithm.RING)).isFalse();
        assertThat(e.algoEnabled(NcclFunc.ALL_REDUCE, Algorithm.COLLNET_DIRECT)).isTrue();
        assertThat(e.algoEnabled(NcclFunc.BROADCAST, Algorithm.COLLNET_DIRECT)).isFalse();

        NcclEnv p = env("NCCL_PROTO", "^LL128;allreduce:LL128");
        assertThat(p.protoEnabled(NcclFunc.REDUCE, Protocol.LL128)).isFalse();
        assertThat(p.protoEnabled(NcclFunc.REDUCE, Protocol.SIMPLE)).isTrue();
        assertThat(p.protoEnabled(NcclFunc.ALL_REDUCE, Protocol.LL128)).isTrue();
        assertThat(p.protoEnabled(NcclFunc.ALL_REDUCE, Protocol.SIMPLE)).isFalse();
    }

    @Test
    void emptySectionsAndElementsAreSkippedLikeStrtok() {
        NcclEnv e = env("NCCL_ALGO", ";;tree,,ring;;allreduce:ring;");
        assertThat(e.algoEnabled(NcclFunc.BROADCAST, Algorithm.TREE)).isTrue();
        assertThat(e.algoEnabled(NcclFunc.ALL_REDUCE, Algorithm.TREE)).isFalse();
    }

    @Test
    void allNcclAlgorithmNamesParse() {
        NcclEnv e = env("NCCL_ALGO", "Tree,Ring,CollNetDirect,CollNetChain,NVLS,NVLSTree,PAT");
        for (Algorithm a : Algorithm.values()) assertThat(e.algoEnabled(NcclFunc.ALL_REDUCE, a)).isTrue();
    }

    @Test
    void unknownAlgorithmNamesTheValidOnes() {
        NcclEnvException ex = error("NCCL_ALGO", "ring,trees");
        assertThat(ex.variable()).isEqualTo("NCCL_ALGO");
        assertThat(ex.token()).isEqualTo("trees");
        assertThat(ex.validValues()).containsExactly("Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS",
                "NVLSTree", "PAT");
        assertThat(ex).hasMessageContaining("NCCL_ALGO=\"ring,trees\"").hasMessageContaining("\"trees\"")
                .hasMessageContaining("valid: Tree, Ring");
    }

    @Test
    void unknownProtocolNamesTheValidOnes() {
        NcclEnvException ex = error("NCCL_PROTO", "LL,LL256");
        assertThat(ex.variable()).isEqualTo("NCCL_PROTO");
        assertThat(ex.token()).isEqualTo("LL256");
        assertThat(ex.validValues()).containsExactly("LL", "LL128", "Simple");
    }

    @Test
    void whitespaceIsNotTrimmedAsInNccl() {
        assertThat(error("NCCL_ALGO", "ring, tree").token()).isEqualTo(" tree");
    }

    @Test
    void unknownPrefixNamesTheFunctions() {
        NcclEnvException ex = error("NCCL_ALGO", "alltoall:ring");
        assertThat(ex.token()).isEqualTo("alltoall");
        assertThat(ex.validValues()).containsExactly("Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce");
        assertThat(ex).hasMessageContaining("prefix");
    }

    @Test
    void onlyTheFirstSectionMayLackAPrefix() {
        NcclEnvException ex = error("NCCL_PROTO", "allreduce:LL;Simple");
        assertThat(ex.token()).isEqualTo("Simple");
        assertThat(ex).hasMessageContaining("all sections except the first must have a function prefix");
    }

    @Test
    void twoColonsInASectionIsAnError() {
        assertThat(error("NCCL_ALGO", "allreduce:ring:tree")).hasMessageContaining("at most one ':'");
        assertThat(error("NCCL_ALGO", "allreduce:")).hasMessage("NCCL_ALGO=\"allreduce:\": function prefix \"allreduce\" has no"
                + " list after ':'; valid: allreduce:<list>, e.g. allreduce:tree");
    }

    @Test
    void ll128EnableIsRejectedWithTheReplacement() {
        NcclEnvException ex = error("NCCL_LL128_ENABLE", "1");
        assertThat(ex.validValues()).contains("NCCL_PROTO=^LL128");
    }

    @Test
    void numbersAcceptDecimalHexAndOctalLikeStrtoll() {
        assertThat(env("NCCL_BUFFSIZE", "4194304").buffSizeBytes()).hasValue(4194304L);
        assertThat(env("NCCL_BUFFSIZE", "0x400000").buffSizeBytes()).hasValue(0x400000L);
        assertThat(env("NCCL_BUFFSIZE", "0X100").buffSizeBytes()).hasValue(256L);
        assertThat(env("NCCL_BUFFSIZE", "0200").buffSizeBytes()).hasValue(128L);
        assertThat(env("NCCL_BUFFSIZE", "+4096").buffSizeBytes()).hasValue(4096L);
        assertThat(env("NCCL_BUFFSIZE", "  4096").buffSizeBytes()).hasValue(4096L);
        assertThat(env("NCCL_MAX_NCHANNELS", "0x20").maxChannels()).hasValue(32);
    }

    @Test
    void badNumbersAreErrors() {
        assertThat(error("NCCL_BUFFSIZE", "4M").token()).isEqualTo("M");
        assertThat(error("NCCL_BUFFSIZE", "0x").variable()).isEqualTo("NCCL_BUFFSIZE");
        assertThat(error("NCCL_BUFFSIZE", "09")).hasMessageContaining("base 8");
        assertThat(error("NCCL_BUFFSIZE", "99999999999999999999")).hasMessageContaining("64 bits");
        // the Simple buffer is NCCL_STEPS = 8 slots of 16-byte aligned size: a multiple of 128 B
        for (String v : new String[] {"0", "-4096", "100", "4194300", "4294967296"}) {
            assertThat(error("NCCL_BUFFSIZE", v)).hasMessage("NCCL_BUFFSIZE=\"" + v + "\": the Simple protocol's buffer is split"
                    + " into NCCL_STEPS=8 slots of 16-byte aligned size; valid: a multiple of 128 bytes from 128 to 2147483648"
                    + " (2 GiB), e.g. 4194304 (the default, 4 MiB)");
        }
        assertThat(error("NCCL_NTHREADS", "abc").variable()).isEqualTo("NCCL_NTHREADS");
        // each variable's integer error gives an example of its own kind, not NCCL_BUFFSIZE's default
        assertThat(error("NCCL_MAX_NCHANNELS", "abc")).hasMessageEndingWith(
                "valid: a decimal integer (16), 0x hexadecimal (0x10), 0-prefixed octal (020)");
        assertThat(error("NCCL_NTHREADS", "abc")).hasMessageEndingWith(
                "valid: a decimal integer (512), 0x hexadecimal (0x200), 0-prefixed octal (01000)");
    }

    @Test
    void channelBoundsAreCheckedAndLegacyNamesWork() {
        NcclEnv e = env("NCCL_MIN_NCHANNELS", "4", "NCCL_MAX_NCHANNELS", "16");
        assertThat(e.minChannels()).hasValue(4);
        assertThat(e.maxChannels()).hasValue(16);
        assertThat(env("NCCL_MAX_NRINGS", "8").maxChannels()).hasValue(8);
        assertThat(env("NCCL_MAX_NRINGS", "8", "NCCL_MAX_NCHANNELS", "12").maxChannels()).hasValue(12);
        assertThat(error("NCCL_MAX_NCHANNELS", "65").validValues()).containsExactly("1..64 (MAXCHANNELS)");
        assertThat(error("NCCL_MIN_NCHANNELS", "0").variable()).isEqualTo("NCCL_MIN_NCHANNELS");
        assertThat(error("NCCL_MIN_NRINGS", "100").variable()).isEqualTo("NCCL_MIN_NRINGS");
        assertThat(error("NCCL_MIN_NCHANNELS", "16", "NCCL_MAX_NCHANNELS", "8"))
                .hasMessageContaining("exceeds the maximum");
    }

    @Test
    void nThreadsMustBeAWarpMultipleIn64To512() {
        assertThat(env("NCCL_NTHREADS", "256").nThreads()).hasValue(256);
        assertThat(env("NCCL_NTHREADS", "96").nThreads()).hasValue(96);
        assertThat(error("NCCL_NTHREADS", "32")).hasMessageContaining("64..512");
        assertThat(error("NCCL_NTHREADS", "1024")).hasMessageContaining("64..512");
        assertThat(error("NCCL_NTHREADS", "100")).hasMessageContaining("multiple of the warp size");
    }

    @Test
    void p2pDisableAndNvlsEnable() {
        assertThat(env("NCCL_P2P_DISABLE", "1").p2pDisable()).isTrue();
        assertThat(env("NCCL_P2P_DISABLE", "0").p2pDisable()).isFalse();
        assertThat(error("NCCL_P2P_DISABLE", "2").validValues()).containsExactly("0", "1");
        assertThat(error("NCCL_P2P_DISABLE", "yes").variable()).isEqualTo("NCCL_P2P_DISABLE");
        assertThat(env("NCCL_NCHANNELS_PER_NET_PEER", "4").netPeerChannels()).hasValue(4);
        assertThat(NcclEnv.empty().netPeerChannels()).isEmpty();
        assertThat(error("NCCL_NCHANNELS_PER_NET_PEER", "0").validValues()).containsExactly("1..64, e.g. 2 or 4");
        assertThat(error("NCCL_NCHANNELS_PER_NET_PEER", "65").variable()).isEqualTo("NCCL_NCHANNELS_PER_NET_PEER");
        assertThat(env("NCCL_P2P_LL_THRESHOLD", "0").p2pLlThreshold()).hasValue(0);
        assertThat(env("NCCL_P2P_LL_THRESHOLD", "0x10000000000").p2pLlThreshold()).hasValue(1L << 40);
        assertThat(error("NCCL_P2P_LL_THRESHOLD", "-1").validValues()).contains("0 (never LL)");
        assertThat(env("NCCL_NVLS_ENABLE", "0").nvlsEnable()).isZero();
        assertThat(env("NCCL_NVLS_ENABLE", "1").nvlsEnable()).isEqualTo(1);
        assertThat(error("NCCL_NVLS_ENABLE", "3").validValues()).hasSize(3);
    }

    @Test
    void otherVariablesAreIgnored() {
        assertThat(env("PATH", "/bin", "NCCL_DEBUG", "INFO").algo()).isEmpty();
    }

    @Test
    void nullMapIsRejected() {
        assertThatThrownBy(() -> NcclEnv.parse(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void networkVariablesDefaultToNcclsAndAreParsed() {
        io.ccsim.algorithms.net.NetPolicy d = env().net();
        assertThat(d).isEqualTo(io.ccsim.algorithms.net.NetPolicy.DEFAULT);
        assertThat(d.crossNic()).isEqualTo(2);
        assertThat(d.pxn()).isTrue();
        assertThat(d.gdrLevel()).isEqualTo(io.ccsim.algorithms.net.PathType.PXB);
        io.ccsim.algorithms.net.NetPolicy p = env("NCCL_CROSS_NIC", "0", "NCCL_PXN_DISABLE", "1", "NCCL_IB_HCA", "^=mlx5_1",
                "NCCL_NET_GDR_LEVEL", "3").net();
        assertThat(p.crossNic()).isZero();
        assertThat(p.pxn()).isFalse();
        assertThat(p.hca().selects("mlx5_1", 1)).isFalse();
        assertThat(p.hca().selects("mlx5_10", 1)).isTrue();
        assertThat(p.gdrLevel()).isEqualTo(io.ccsim.algorithms.net.PathType.PHB);
        for (String v : new String[] {"NCCL_CROSS_NIC", "NCCL_PXN_DISABLE", "NCCL_IB_HCA", "NCCL_NET_GDR_LEVEL"}) {
            assertThat(NcclEnv.honours(v)).as(v).isTrue();
        }
        assertThat(NcclEnv.honours("NCCL_DEBUG")).isFalse();
    }

    @Test
    void badNetworkValuesNameTheVariableAndWhatIsValid() {
        assertThatThrownBy(() -> env("NCCL_CROSS_NIC", "3")).hasMessage("NCCL_CROSS_NIC=\"3\": out of range; valid: 0 (leave a node"
                + " by the NIC a ring entered by), 1 (any NIC), 2 (default: 0 unless only alternating NIC pairs are found)");
        assertThatThrownBy(() -> env("NCCL_PXN_DISABLE", "yes")).hasMessageStartingWith("NCCL_PXN_DISABLE=\"yes\": not an integer");
        assertThatThrownBy(() -> env("NCCL_PXN_DISABLE", "2")).hasMessage("NCCL_PXN_DISABLE=\"2\": not a boolean; valid: 0, 1");
        assertThatThrownBy(() -> env("NCCL_IB_HCA", "mlx5_0:a")).hasMessageStartingWith("NCCL_IB_HCA=\"mlx5_0:a\": port \"a\"")
                .hasMessageContaining("mlx5_0, mlx5_1");
        assertThatThrownBy(() -> env("NCCL_NET_GDR_LEVEL", "pix")).hasMessage("NCCL_NET_GDR_LEVEL=\"pix\": not a path level;"
                + " valid: LOC, NVL, NVB, C2C, PIX, PXB, P2C, PXN, PHB, SYS, or 0-5 (0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 SYS)");
    }
}
