package io.ccsim.topology.smi;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.topology.smi.SmiText.Token;
import org.junit.jupiter.api.Test;

class SmiTextTest {

    @Test
    void dropsCarriageReturnsAndAnsiUnderlines() {
        SmiText t = new SmiText("\u001B[4m\tGPU0\tGPU1\u001B[0m\r\nGPU0\t X \tNV18\r\n", "f.txt");
        assertThat(t.lineCount()).isEqualTo(3);
        assertThat(t.line(0)).isEqualTo("\tGPU0\tGPU1");
        assertThat(t.line(2)).isEmpty();
    }

    @Test
    void tokensCarryTheirOneBasedColumn() {
        SmiText t = new SmiText("GPU0\t X \tNV18", "f.txt");
        assertThat(t.tokens(0)).containsExactly(new Token("GPU0", 1), new Token("X", 7), new Token("NV18", 10));
    }

    @Test
    void errorsNameSourceLineAndColumn() {
        SmiText t = new SmiText("a\nb", "f.txt");
        assertThat(t.error(1, 3, "bad").getMessage()).isEqualTo("f.txt:2:3: bad");
        assertThat(t.source()).isEqualTo("f.txt");
    }
}
