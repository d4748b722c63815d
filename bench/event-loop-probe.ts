/**
 * Loaded into the portal's process by bench/download.ts (`node --import`): the event loop's delay,
 * measured by `perf_hooks.monitorEventLoopDelay`, answered over the IPC channel the bench opens.
 * `reset` starts a new measurement, `read` answers its p50, p99 and maximum in milliseconds (how late
 * a 1 ms timer fired: the longest stretch a request waited for the loop).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  process.on('message', (message) => {
    if (message === 'event-loop:reset') {
      histogram.reset();
      process.send?.({ reset: true });
    } else if (message === 'event-loop:read') {
      // the histogram counts the timer's own 1 ms period: the delay is what comes on top of it
      const ms = (ns: number) => Math.max(0, ns / 1e6 - 1);
      process.send?.({
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      });
    }
  });
  // the channel alone must not keep the portal running once it closes
  process.channel?.unref();
}
