/**
 * One progress bar per phase of a migration. On a terminal the bar is redrawn in place (on stderr, so the
 * report on stdout stays clean); elsewhere (a log, a test) each phase prints one line when it is done.
 */
const WIDTH = 28;

export interface Phase {
  advance(by: number): void;
  /** Ends the bar with a summary of the phase. */
  done(summary: string): void;
}

export function phase(name: string, total: number, out: (line: string) => void): Phase {
  const tty = process.stderr.isTTY === true;
  let count = 0;
  const label = name.padEnd(18);
  const draw = () => {
    if (!tty) return;
    const filled = total === 0 ? WIDTH : Math.round((count / total) * WIDTH);
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${count}/${total}`);
  };
  draw();
  return {
    advance(by) {
      count = Math.min(total, count + by);
      draw();
    },
    done(summary) {
      if (tty) process.stderr.write('\r\x1b[2K');
      out(`${label} ${summary}`);
    },
  };
}
