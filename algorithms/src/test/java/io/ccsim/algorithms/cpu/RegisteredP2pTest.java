package io.ccsim.algorithms.cpu;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.P2pSettings;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.plan.Primitive;
import io.ccsim.algorithms.plan.StepCursor;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Send/recv and all-to-all on registered buffers ({@link P2pSettings#registered()}): the data lands where the
 * reference puts it, a Simple operation's part on a channel is one step whose receive is one-sided, and where NCCL's
 * registered path does not apply (LL, several hosts) the plan is the unregistered one, step for step.
 */
class RegisteredP2pTest {
    private static final Planners PLANNERS = Planners.standard();

    private static PlanOptions options(Protocol proto, int channels, boolean registered) {
        return PlanOptions.of(Algorithm.P2P, proto, channels).withBufferBytes(proto == Protocol.LL ? 8 * 1024 : 4 * 1024)
                .withP2p(new P2pSettings(4, 1024, registered));
    }

    /** Both ops, 2 to 8 ranks on one host, LL and Simple, 1 to 16 channels, every dtype in turn: checked element by element. */
    @TestFactory
    Stream<DynamicTest> registeredCallsMoveWhatTheReferenceMoves() {
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        int k = 0;
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.SEND_RECV, CollectiveOp.ALL_TO_ALL}) {
            for (int n : new int[] {2, 3, 4, 8}) {
                for (Protocol proto : new Protocol[] {Protocol.LL, Protocol.SIMPLE}) {
                    for (int channels : new int[] {1, 5, 16}) {
                        DataType dt = DataType.values()[k++ % DataType.values().length];
                        long count = 1 + 1_531L * (k % 7);
                        CollectiveCall call = new CollectiveCall(op, count, dt, ReduceOp.SUM, 0, CommLayout.singleHost(n));
                        PlanOptions o = options(proto, channels, true);
                        long seed = k;
                        tests.add(DynamicTest.dynamicTest(op + " n=" + n + " " + proto + " " + channels + " ch " + dt + " x " + count,
                                () -> CollectiveCheck.planRunVerify(PLANNERS, exec, call, o, seed, null)));
                    }
                }
            }
        }
        return tests.stream();
    }

    @Test
    void aSimpleSendRecvPartIsOneStepWhoseReceiveIsOneSided() {
        CollectiveCall call = new CollectiveCall(CollectiveOp.SEND_RECV, 100_000, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.singleHost(4));
        Plan reg = PLANNERS.plan(call, options(Protocol.SIMPLE, 8, true));
        Plan fifo = PLANNERS.plan(call, options(Protocol.SIMPLE, 8, false));
        StepCursor c = new StepCursor();
        for (int ch = 0; ch < 8; ch++) {
            assertThat(reg.stepCount(1, ch, 0)).isEqualTo(1);
            assertThat(reg.stepCount(1, ch, 1)).isEqualTo(1);
            assertThat(fifo.stepCount(1, ch, 0)).isGreaterThan(1); // 50,000 B a channel in 512-B slots of a 4 KiB buffer
            reg.step(1, ch, 1, 0, c);
            assertThat(c.prim()).isEqualTo(Primitive.RECV);
            assertThat(c.memory()).isTrue();
            assertThat(c.direct()).isTrue();
            assertThat(c.count()).isEqualTo(12_500);
            reg.step(1, ch, 0, 0, c);
            assertThat(c.prim()).isEqualTo(Primitive.SEND);
            assertThat(c.memory()).isFalse();
            assertThat(c.direct()).isTrue();
        }
    }

    @Test
    void anAllToAllSendsEachPeersPartInOneStepAndCopiesItsOwnBlockAsBefore() {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_TO_ALL, 40_000, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.singleHost(4));
        Plan reg = PLANNERS.plan(call, options(Protocol.SIMPLE, 8, true));
        StepCursor c = new StepCursor();
        int copies = 0;
        for (int ch = 0; ch < reg.nChannels(); ch++) {
            for (int lane = 0; lane < reg.nLanes(); lane++) {
                for (int i = 0; i < reg.stepCount(2, ch, lane); i++) {
                    reg.step(2, ch, lane, i, c);
                    if (c.prim() == Primitive.LOCAL_COPY) {
                        copies++;
                        assertThat(c.count()).isLessThanOrEqualTo(4 * 1024 / 8 / 4); // the own block keeps the slot's chunks
                    } else if (c.prim() == Primitive.RECV) {
                        assertThat(c.memory()).isTrue();
                    }
                }
            }
        }
        assertThat(copies).isGreaterThan(1);
        // per peer and channel one step: 3 peers' blocks of 160,000 B, each in 4 parts (NCCL's aligned part bounds)
        long peerSteps = 0;
        long sent = 0;
        for (int ch = 0; ch < reg.nChannels(); ch++) {
            for (int lane = 0; lane < reg.nLanes() / 2; lane++) {
                for (int i = 0; i < reg.stepCount(2, ch, lane); i++) {
                    reg.step(2, ch, lane, i, c);
                    if (c.prim() == Primitive.SEND) {
                        peerSteps++;
                        sent += c.count();
                        assertThat(c.direct()).isTrue();
                    }
                }
            }
        }
        assertThat(peerSteps).isEqualTo(3 * 4);
        assertThat(sent).isEqualTo(3 * 40_000);
    }

    /** NCCL registers only Simple operations, and ccsim simulates its one-step registered path on one host. */
    @Test
    void llAndSeveralHostsKeepTheUnregisteredPlan() {
        for (CommLayout l : new CommLayout[] {CommLayout.singleHost(4), CommLayout.uniform(2, 4)}) {
            for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.SEND_RECV, CollectiveOp.ALL_TO_ALL}) {
                for (Protocol proto : new Protocol[] {Protocol.LL, Protocol.SIMPLE}) {
                    if (l.nHosts() == 1 && proto == Protocol.SIMPLE) continue;
                    CollectiveCall call = new CollectiveCall(op, 50_000, DataType.FLOAT32, ReduceOp.SUM, 0, l);
                    Plan reg = PLANNERS.plan(call, options(proto, 8, true));
                    Plan fifo = PLANNERS.plan(call, options(proto, 8, false));
                    assertThat(reg.totalSteps()).as(l + " " + op + " " + proto).isEqualTo(fifo.totalSteps());
                    for (int ch = 0; ch < reg.nChannels(); ch++) {
                        for (int lane = 0; lane < reg.nLanes(); lane++) {
                            assertThat(Arrays.equals(reg.encodeSteps(1, ch, lane), fifo.encodeSteps(1, ch, lane)))
                                    .as(l + " " + op + " " + proto + " ch " + ch + " lane " + lane).isTrue();
                        }
                    }
                }
            }
        }
    }
}
