package io.ccsim.scenarios.incident;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TorchLogTest {

    @Test
    void theWatchdogTimeoutIsReadOncePerCollective() throws Exception {
        String text = Real.text("skip/stdout_rank0.txt");
        assertThat(TorchLog.is(text)).isTrue();
        TorchLog l = TorchLog.read("stdout_rank0.txt", -1, text);
        assertThat(l.rank()).isZero();
        // the message is repeated in the exception that takes the process down: one timeout, #11
        assertThat(l.seqNums()).containsExactly(11L);
        assertThat(l.timeouts().get(0).number()).isEqualTo(2);
        assertThat(l.timeouts().get(0).text()).startsWith("[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=11,");
        assertThat(l.errors()).isEmpty();
    }

    @Test
    void anNcclErrorRaisedToPythonCarriesItsCodeAndLastError() throws Exception {
        TorchLog l = TorchLog.read("stdout_rank1.txt", 1, Real.text("ifname/stdout_rank1.txt"));
        assertThat(l.rank()).isEqualTo(1);
        assertThat(l.errors()).singleElement().satisfies(e -> assertThat(e.text())
                .startsWith("ncclInvalidUsage: NCCL error in: ")
                .endsWith("; last error: Bootstrap : no socket interface found"));
    }

    @Test
    void aRankThatDumpedOnAnotherRanksSignalSaysSo() throws Exception {
        TorchLog l = TorchLog.read("stdout_rank1.txt", -1, Real.text("sleep/stdout_rank1.txt"));
        assertThat(l.rank()).isEqualTo(1);
        assertThat(l.timeouts()).isEmpty();
        assertThat(l.dumpFrom()).hasSize(1);
    }
}
