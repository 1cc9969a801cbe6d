package io.ccsim.algorithms.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.scale.ScalingLaw;
import org.junit.jupiter.api.Test;

/** The extrapolation's tree regressor is the depth of NCCL's two trees as the planner builds them. */
class TreeDepthTest {

    @Test
    void ceilLog2NodesIsTheDeepestNodeOfBothTrees() {
        for (int n = 2; n <= 4096; n++) {
            for (int t = 0; t < 2; t++) assertThat((double) depth(n, t)).as("n=" + n + " tree " + t).isEqualTo(ScalingLaw.TREE.x(n));
        }
        assertThat((double) depth(12_500, 0)).isEqualTo(ScalingLaw.TREE.x(12_500));
        assertThat((double) depth(12_500, 1)).isEqualTo(ScalingLaw.TREE.x(12_500));
    }

    /** Levels from the deepest node of tree t over n nodes up to its root. */
    private static int depth(int n, int t) {
        int[] d = new int[n];
        java.util.Arrays.fill(d, -1);
        int max = 0;
        for (int r = 0; r < n; r++) max = Math.max(max, depthOf(n, t, r, d));
        return max;
    }

    private static int depthOf(int n, int t, int r, int[] memo) {
        int x = r;
        java.util.ArrayDeque<Integer> path = new java.util.ArrayDeque<>();
        while (memo[x] < 0) {
            int up = TreeAllReducePlanner.dtree(n, x, t)[0];
            if (up < 0) {
                memo[x] = 0;
                break;
            }
            path.push(x);
            x = up;
        }
        int base = memo[x];
        while (!path.isEmpty()) memo[path.pop()] = ++base;
        return memo[r];
    }
}
