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
    addToStep(steps.step(7, 300_000, metrics()).steps[0] as StepAggregate, 7, 302_000);
    expect([...steps.map.values()]).toEqual([
      {
        deviceId: 7,
        bucket: 300_000,
        metrics: ['power', 'energy'],
        steps: [
          { n: 2, total: 12, min: 5, max: 7, last: 7, lastAt: 302_000, increase: null },
          { n: 0, total: 0, min: null, max: null, last: null, lastAt: null, increase: 0 },
        ],
        readings: 0,
      },
    ]);
  });

  it('merge another batch’s step of the same device, start and metrics into theirs, and keep a new one', () => {
    // Steps held back between batches: what the second batch brings is added to the first's.
    const held = new WideSteps();
    const batch = (value: number, at: number, bucket = 300_000) => {
      const steps = new WideSteps();
      const wide = steps.step(7, bucket, metrics());
      addToStep(wide.steps[0] as StepAggregate, value, at);
      addToStep(wide.steps[1] as StepAggregate, value * 10, at);
      (wide.steps[1] as StepAggregate).increase = value;
      wide.readings += 1;
      return wide;
    };
    held.merge(batch(5, 301_000));
    held.merge(batch(3, 302_000));
    held.merge(batch(1, 601_000, 600_000));
    expect(
      [...held.map.values()].map(({ bucket, steps, readings }) => ({ bucket, steps, readings })),
    ).toEqual([
      {
        bucket: 300_000,
        steps: [
          { n: 2, total: 8, min: 3, max: 5, last: 3, lastAt: 302_000, increase: null },
          { n: 2, total: 80, min: 30, max: 50, last: 30, lastAt: 302_000, increase: 8 },
        ],
        readings: 2,
      },
      {
        bucket: 600_000,
        steps: [
          { n: 1, total: 1, min: 1, max: 1, last: 1, lastAt: 601_000, increase: null },
          { n: 1, total: 10, min: 10, max: 10, last: 10, lastAt: 601_000, increase: 1 },
        ],
        readings: 1,
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
