import { describe, expect, it } from 'vitest';
import { addToStep, type StepAggregate } from '../../server/monitoring/telemetry/rollup-math.ts';
import { WideSteps } from '../../server/monitoring/telemetry/rollup-steps.ts';

/** The 5-minute steps a batch builds before its one upsert. */
describe('a batch’s 5-minute steps', () => {
  const metrics = () => [
    { name: 'power', counter: false },
    { name: 'energy', counter: true },
  ];

  it('keep one step per device, step start and metric names, whichever list object names them', () => {
    // The catalogue read again hands out a new list of the same names: the same step.
    const steps = new WideSteps();
    const first = steps.step(7, 300_000, metrics());
    addToStep(first.steps[0] as StepAggregate, 5, 301_000);
    const again = steps.step(7, 300_000, metrics());
    expect(again).toBe(first);
    addToStep(steps.at(7, 300_000, metrics(), 'power') as StepAggregate, 7, 302_000);
    expect([...steps.map.values()]).toEqual([
      {
        deviceId: 7,
        bucket: 300_000,
        metrics: ['power', 'energy'],
        steps: [
          { n: 2, total: 12, min: 5, max: 7, last: 7, lastAt: 302_000, increase: null },
          { n: 0, total: 0, min: null, max: null, last: null, lastAt: null, increase: 0 },
        ],
      },
    ]);
  });

  it('keep devices, step starts and lists of metrics apart', () => {
    const steps = new WideSteps();
    const list = metrics();
    steps.step(7, 300_000, list);
    steps.step(8, 300_000, list);
    steps.step(7, 600_000, list);
    steps.step(7, 300_000, [{ name: 'power', counter: false }]);
    expect(steps.map.size).toBe(4);
  });
});
