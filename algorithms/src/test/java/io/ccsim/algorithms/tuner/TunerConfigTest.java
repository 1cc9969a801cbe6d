package io.ccsim.algorithms.tuner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.profile.CalibrationProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NCCL's example tuner plugin file: the format, the plugin's matching rules, and the tuner following it. */
class TunerConfigTest {
    private static final CalibrationProfile H200 = CalibrationProfile.builtin("h200");

    /** 2 nodes × 8 GPUs, NVLink inside, 16 channels: Tree and Ring with every protocol are candidates. */
    private static TuneInput twoNodes(CollectiveOp op, long bytes) {
        return TuneInput.of(op, bytes, 16, 2, 20.0, 12.0, LinkClass.NVLINK, 16);
    }

    private static Tuner tuner(Path conf) {
        return new Tuner(H200, NcclEnv.parse(Map.of("NCCL_TUNER_CONFIG_FILE", conf.toString())));
    }

    @Test
    void parsesRowsOfEightNineAndTenFieldsSkippingCommentsBlankLinesBomAndCrlf() {
        TunerConfig c = TunerConfig.parse("\uFEFF# header\r\n\r\nallreduce,0,65536,tree,simple,2,1,-1\r\n"
                + "  # indented comment\n allgather , 1 , 2 , ring , ll128 , -1 , -1 , 8 , 4\n"
                + "reducescatter,0,18446744073709551615,pat,simple,4,-1,-1,-1,1\n", "t.conf");
        assertThat(c.rows()).hasSize(3);
        TunerConfig.Row a = c.rows().get(0);
        assertThat(a.line()).isEqualTo(3);
        assertThat(a.collective()).isEqualTo(CollectiveOp.ALL_REDUCE);
        assertThat(a.maxBytes()).isEqualTo(65536);
        assertThat(a.numPipeOps()).isEqualTo(-1);
        assertThat(a.regBuff()).isEqualTo(-1);
        TunerConfig.Row b = c.rows().get(1);
        assertThat(b.line()).isEqualTo(5);
        assertThat(b.algorithm()).isEqualTo(Algorithm.RING);
        assertThat(b.protocol()).isEqualTo(Protocol.LL128);
        assertThat(b.nRanks()).isEqualTo(8);
        assertThat(b.numPipeOps()).isEqualTo(4);
        TunerConfig.Row r = c.rows().get(2);
        assertThat(r.maxBytes()).isEqualTo(Long.MAX_VALUE);
        assertThat(r.regBuff()).isEqualTo(1);
        assertThat(r.format()).isEqualTo("reducescatter,0,18446744073709551615,pat,simple,4,-1,-1,-1,1");
    }

    @Test
    void badRowsNameTheFileLineFieldAndValidValues() {
        assertThatThrownBy(() -> TunerConfig.parse("# c\nallreduce,0,1,tree,simple,2,1\n", "x.conf"))
                .hasMessageStartingWith("x.conf:2: expected 8 to 10 comma-separated fields").hasMessageContaining("got 7");
        assertThatThrownBy(() -> TunerConfig.parse("all_reduce,0,1,tree,simple,2,1,-1", "x.conf"))
                .hasMessageContaining("x.conf:1: collective_type 'all_reduce' is not valid (did you mean 'allreduce'?")
                .hasMessageContaining("valid: broadcast, reduce, allgather, reducescatter, allreduce");
        assertThatThrownBy(() -> TunerConfig.parse("allreduce,0,1,Ring,simple,2,1,-1", "x.conf"))
                .hasMessageContaining("algorithm 'Ring' is not valid (did you mean 'ring'?");
        assertThatThrownBy(() -> TunerConfig.parse("allreduce,0,1,ring,LL,2,1,-1", "x.conf"))
                .hasMessageContaining("protocol 'LL' is not valid (did you mean 'll'?");
        assertThatThrownBy(() -> TunerConfig.parse("allreduce,9,1,ring,ll,2,1,-1", "x.conf"))
                .hasMessageContaining("min_bytes 9 exceeds max_bytes 1");
        assertThatThrownBy(() -> TunerConfig.parse("allreduce,-5,1,ring,ll,2,1,-1", "x.conf"))
                .hasMessageContaining("min_bytes '-5' is not a non-negative integer");
        assertThatThrownBy(() -> TunerConfig.parse("allreduce,0,18446744073709551616,ring,ll,2,1,-1", "x.conf"))
                .hasMessageContaining("exceeds 18446744073709551615");
        assertThatThrownBy(() -> TunerConfig.parse("allreduce,0,1,ring,ll,0,1,-1", "x.conf"))
                .hasMessageContaining("channels '0' is not valid; valid: -1 (any: the plugin then returns 1 channel) or 1..64");
        assertThatThrownBy(() -> TunerConfig.parse("allreduce,0,1,ring,ll,2,1,-1,1,2", "x.conf"))
                .hasMessageContaining("regBuff '2' is not valid; valid: 1");
        assertThatThrownBy(() -> TunerConfig.parse("allreduce,0,1,ring,,2,1,-1", "x.conf"))
                .hasMessageContaining("field 5 (protocol) is empty");
    }

    @Test
    void missingFileIsAnErrorNotASilentOneChannelRun(@TempDir Path dir) {
        assertThatThrownBy(() -> NcclEnv.parse(Map.of("NCCL_TUNER_CONFIG_FILE", dir.resolve("none.conf").toString())))
                .isInstanceOf(TunerConfigException.class).hasMessageContaining("no such file");
    }

    @Test
    void theFirstMatchingRowWithAnAllowedPairWinsWithItsChannels(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t.conf");
        Files.writeString(f, String.join("\n",
                "allreduce,0,1048576,nvls,simple,8,-1,-1",      // NVLS is not a candidate here: passed over
                "allreduce,0,1048576,ring,ll128,6,2,16",         // this one
                "allreduce,0,1048576,tree,ll,4,-1,-1",           // shadowed
                "allreduce,1048577,4294967295,tree,simple,-1,-1,-1", // -1: the plugin returns 1
                "allgather,0,4294967295,ring,simple,3,4,-1"));   // another node count: never matches
        TuneResult r = tuner(f).tune(twoNodes(CollectiveOp.ALL_REDUCE, 65536));
        assertThat(r.winner().label()).isEqualTo("Ring/LL128");
        assertThat(r.winner().channels()).isEqualTo(6);
        assertThat(r.tunerPlugin().orElseThrow().row().orElseThrow().line()).isEqualTo(2);
        assertThat(r.candidates()).contains(r.winner());

        TuneResult big = tuner(f).tune(twoNodes(CollectiveOp.ALL_REDUCE, 1L << 30));
        assertThat(big.winner().label()).isEqualTo("Tree/Simple");
        assertThat(big.winner().channels()).isEqualTo(1);

        TuneResult none = tuner(f).tune(twoNodes(CollectiveOp.ALL_GATHER, 1L << 20));
        TuneResult own = new Tuner(H200, NcclEnv.empty()).tune(twoNodes(CollectiveOp.ALL_GATHER, 1L << 20));
        assertThat(none.tunerPlugin().orElseThrow().row()).isEmpty();
        assertThat(none.winner().label()).isEqualTo(own.winner().label());
        assertThat(own.winner().channels()).isGreaterThan(1);
        assertThat(none.winner().channels()).isEqualTo(1);
    }

    @Test
    void sizeBoundsAreInclusiveAndCountsMatchExactlyOrAny() {
        TunerConfig c = TunerConfig.parse("allreduce,100,200,ring,ll,2,2,16,1,0\n", "t");
        Tuner own = new Tuner(H200, NcclEnv.empty());
        for (long bytes : new long[] {99, 100, 200, 201}) {
            TuneResult base = own.tune(twoNodes(CollectiveOp.ALL_REDUCE, bytes));
            TunerConfig.Decision d = c.decide(base.input(), base.candidates(), 1, 0);
            assertThat(d.row().isPresent()).as("%d bytes", bytes).isEqualTo(bytes >= 100 && bytes <= 200);
            assertThat(c.decide(base.input(), base.candidates(), 2, 0).row()).as("numPipeOps 2").isEmpty();
            assertThat(c.decide(base.input(), base.candidates(), 1, 1).row()).as("registered").isEmpty();
        }
        TuneResult other = own.tune(TuneInput.of(CollectiveOp.ALL_REDUCE, 150, 32, 4, 20.0, 12.0, LinkClass.NVLINK, 16));
        assertThat(c.decide(other.input(), other.candidates(), 1, 0).row()).isEmpty();
    }

    @Test
    void writtenTablesMergeEqualChoicesAndReadBackToTheSameChoiceAtEverySize() {
        long[] sizes = {1024, 8192, 65536, 524288, 4194304, 33554432};
        Algorithm[] a = {Algorithm.TREE, Algorithm.RING, Algorithm.RING, Algorithm.RING, Algorithm.TREE, Algorithm.TREE};
        Protocol[] p = {Protocol.LL, Protocol.LL, Protocol.LL, Protocol.LL128, Protocol.LL128, Protocol.SIMPLE};
        int[] nc = {2, 4, 4, 16, 16, 16};
        List<TunerConfigWriter.Choice> choices = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) choices.add(new TunerConfigWriter.Choice(sizes[i], a[i], p[i], nc[i]));
        String text = TunerConfigWriter.write(CollectiveOp.ALL_REDUCE, 2, 16, choices, List.of("test"));
        TunerConfig back = TunerConfig.parse(text, "w");
        assertThat(back.rows()).hasSize(5); // 8192 and 65536 merge
        assertThat(back.rows().get(0).minBytes()).isZero();
        assertThat(back.rows().get(0).maxBytes()).isEqualTo(8191);
        assertThat(back.rows().get(1).maxBytes()).isEqualTo(524287);
        assertThat(back.rows().get(4).maxBytes()).isEqualTo(Long.MAX_VALUE);
        Tuner own = new Tuner(H200, NcclEnv.empty());
        for (int i = 0; i < sizes.length; i++) {
            TuneResult base = own.tune(twoNodes(CollectiveOp.ALL_REDUCE, sizes[i]));
            TunerConfig.Decision d = back.decide(base.input(), base.candidates(), 1, 0);
            assertThat(d.row().orElseThrow().algorithm()).isEqualTo(a[i]);
            assertThat(d.row().orElseThrow().protocol()).isEqualTo(p[i]);
            assertThat(d.channels()).isEqualTo(nc[i]);
        }
        assertThatThrownBy(() -> TunerConfigWriter.write(CollectiveOp.SEND_RECV, 2, 16, choices, List.of()))
                .hasMessageContaining("not sendrecv");
    }

    @Test
    void longCommentsAreWrappedSoThatThePluginsLineBufferNeverSplitsALineIntoARow() {
        // plugin.c reads lines with fgets into char[256]: a line of 255 characters or more comes back in pieces
        String word = "x".repeat(300);
        String comment = "provenance " + "abcdefghij ".repeat(40) + word;
        List<TunerConfigWriter.Choice> one = List.of(new TunerConfigWriter.Choice(1024, Algorithm.RING, Protocol.LL, 4));
        String text = TunerConfigWriter.write(CollectiveOp.ALL_REDUCE, 2, 16, one, List.of(comment));
        List<String> commentLines = new ArrayList<>();
        for (String line : text.split("\n")) {
            assertThat(line.length() + 1).as(line).isLessThanOrEqualTo(255);
            if (line.startsWith("#")) commentLines.add(line.substring(2));
        }
        // the last comment line is the column header; the others hold every character of the comment, in order
        List<String> wrapped = commentLines.subList(0, commentLines.size() - 1);
        assertThat(wrapped).hasSizeGreaterThan(2);
        assertThat(String.join("", wrapped).replace(" ", "")).isEqualTo(comment.replace(" ", ""));
        assertThat(TunerConfig.parse(text, "w").rows()).hasSize(1);
    }
}
