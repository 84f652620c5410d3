import type { FastifyInstance } from 'fastify';

/**
 * Writes the answers completed in the turn of the event loop their requests arrived in together,
 * once that turn's I/O callbacks are done (`setImmediate`), instead of each as soon as it is
 * ready. The peer reading them (a load balancer, a client) sleeps between answers, and a write
 * that finds it asleep pays for waking it: for a route that answers from memory, like the token
 * endpoint, that was a third of a request's CPU on a loaded two-core machine. Written back to back,
 * one wake-up serves the whole turn (bench/results/history.md, Answers and Redis calls written
 * per turn of the event loop).
 *
 * An answer completed in a later turn (after a read, say) is written at once: whatever completed
 * it already delivers the answers of its batch together, and waiting for yet another turn would
 * only add latency. So every request costs one comparison, and every turn that received requests
 * one `setImmediate`, scheduled by its first request, which also marks the end of the turn for
 * the answers completed after it.
 */
export function coalesceAnswers(app: FastifyInstance): void {
  let turn = 0;
  let turnEndScheduled = false;
  let waiting: Array<() => void> = [];

  const endTurn = () => {
    turn++;
    turnEndScheduled = false;
    const ready = waiting;
    waiting = [];
    for (const write of ready) write();
  };

  app.decorateRequest('arrivedInTurn', -1);
  app.addHook('onRequest', (request, _reply, done) => {
    request.arrivedInTurn = turn;
    if (!turnEndScheduled) {
      turnEndScheduled = true;
      setImmediate(endTurn);
    }
    done();
  });
  app.addHook('onSend', (request, _reply, _payload, done) => {
    if (request.arrivedInTurn === turn) waiting.push(done);
    else done();
  });
}
