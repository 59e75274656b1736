import type { DeviceConfig } from '../config-schema.ts';
import { FACTORY_GROUP } from '../excluded-groups.ts';
import { addIdentityDerived, addIdentityGroups, addIdentityItems, FACTORY_NOTE } from './common-sections.ts';
import { field, ProductBuilder } from './product-builder.ts';

/** E1 MPPT 40 A Charge Controller: 12/24/48 V battery, up to 150 V PV. */
export function e1mppt40(): DeviceConfig {
  const b = new ProductBuilder();
  addIdentityItems(b, { firmware: [3, 1, 7], name: 'E1-40', password: 'e1e1' });
  b.live('pvVoltage', 'u16be', 96.4, 0.01, 'V')
    .live('pvCurrent', 'u16be', 7.8, 0.01, 'A')
    .live('batteryVoltage', 'u16le', 27.62, 0.01, 'V')
    .live('chargeCurrent', 'u16le', 26.4, 0.1, 'A')
    .live('loadCurrent', 's16le', 3.2, 0.1, 'A')
    .live('chargePower', 'u16be', 729, 1, 'W')
    .live('controllerTemp', 's8', 38, 1, '°C')
    .live('batteryTemp', 's8', 21, 1, '°C')
    .live('yieldToday', 'u16le', 3.42, 0.01, 'kWh')
    .live('yieldTotal', 'u32be', 4821.3, 0.1, 'kWh')
    .live('maxPowerToday', 'u16le', 1104, 1, 'W')
    .live('chargeStage', 'u8', 1)
    .live('errorFlags', 'u16be', 0)
    .live('daysInService', 'u32le', 418, 1, 'd')
    .raw('batteryType', 'u8', 2)
    .raw('systemVoltage', 'u8', 24, { unit: 'V' })
    .raw('absorptionVoltage', 'u16le', 28.8, { multiplier: 0.01, unit: 'V' })
    .raw('floatVoltage', 'u16le', 27.6, { multiplier: 0.01, unit: 'V' })
    .raw('equalizeVoltage', 'u16be', 29.6, { multiplier: 0.01, unit: 'V' })
    .raw('absorptionTime', 'u16le', 120, { unit: 'min' })
    .raw('tempCompensation', 's16le', -3, { multiplier: 0.1, unit: 'mV/°C/cell' })
    .raw('maxChargeCurrent', 'u8', 40, { unit: 'A' })
    .raw('loadMode', 'u8', 0)
    .raw('loadOnTime', 'u16be', 1110, { unit: 'min' })
    .raw('loadOffTime', 'u32le', 23400, { unit: 's' })
    .raw('lowVoltageDisconnect', 'u16le', 23, { multiplier: 0.01, unit: 'V' })
    .raw('lowVoltageReconnect', 'u16le', 25.2, { multiplier: 0.01, unit: 'V' })
    .raw('pvStartOffset', 's32be', 5, { multiplier: 0.01, unit: 'V' })
    .raw('currentGain', 's16be', 0.998, { multiplier: 0.001 })
    .live('readingTime', 'u32le', 0);
  addIdentityDerived(b);
  b.other(
    'pvPower',
    [{ type: 'cal', op: 'mul', left: { ref: 'pvVoltage' }, right: { ref: 'pvCurrent' }, round: 0 }],
    'W',
  )
    .other(
      'conversionEfficiency',
      [
        { type: 'cal', op: 'div', left: { ref: 'chargePower' }, right: { ref: 'pvPower' } },
        { type: 'cal', op: 'mul', left: { ref: '$' }, right: { num: 100 }, round: 1 },
      ],
      '%',
    )
    .other('overheating', [
      { type: 'com', ref: 'controllerTemp', op: 'gt', to: 70, outcomes: ['Derating', 'Normal'] },
    ])
    .other('pvAboveBattery', [{ type: 'com', ref: 'pvVoltage', op: 'gt', to: { ref: 'batteryVoltage' } }])
    .other('batteryOverVoltage', [{ type: 'bsv', ref: 'errorFlags', bit: 1, outcomes: ['Alarm', 'OK'] }])
    .other('sensorMissing', [{ type: 'bsv', ref: 'errorFlags', bit: 7 }])
    .other('chargeStageText', [
      { type: 'vfa', ref: 'chargeStage', list: ['Off', 'Bulk', 'Absorption', 'Float', 'Equalise'] },
    ])
    .other('batteryTypeText', [
      { type: 'vfa', ref: 'batteryType', list: ['Flooded', 'AGM', 'Gel', 'LiFePO4', 'User'] },
    ])
    .other('loadModeText', [
      { type: 'vfa', ref: 'loadMode', list: ['Always on', 'Dusk to dawn', 'Timer', 'Off'] },
    ])
    .other('absorptionTimeText', [{ type: 'its', ref: 'absorptionTime' }])
    .other('loadOnAt', [{ type: 'itd', ref: 'loadOnTime' }])
    .other('loadOffAt', [{ type: 'tfm', ref: 'loadOffTime' }]);
  addIdentityGroups(b);
  b.monitoring({
    timeItem: 'readingTime',
    derived: ['pvPower'],
    counters: ['yieldTotal'],
    roles: { production: 'pvPower', producedEnergy: 'yieldTotal' },
    status: [
      {
        item: 'errorFlags',
        bits: [
          { bit: 1, text: 'Battery over-voltage', severity: 'critical' },
          { bit: 7, text: 'Battery temperature sensor missing', severity: 'info' },
        ],
      },
      { item: 'chargeStage' },
    ],
    thresholds: [
      {
        item: 'controllerTemp',
        above: 75,
        clearAt: 70,
        text: 'Controller temperature above 75 °C',
        severity: 'critical',
      },
    ],
  });
  b.group('Battery', [
    field('batteryType', {
      label: 'Battery type',
      required: true,
      min: 0,
      max: 4,
      display: 'batteryTypeText',
    }),
    {
      dataId: 'systemVoltage',
      active: false,
      label: 'System voltage',
      note: 'Detected by the controller from the battery when it starts: it cannot be set.',
    },
    field('absorptionVoltage', { label: 'Absorption voltage', required: true, min: 24, max: 32 }),
    field('floatVoltage', { label: 'Float voltage', required: true, min: 24, max: 30 }),
    field('equalizeVoltage', { label: 'Equalisation voltage', min: 26, max: 32 }),
    field('absorptionTime', { label: 'Absorption time', min: 10, max: 480, display: 'absorptionTimeText' }),
    field('tempCompensation', { label: 'Temperature compensation', min: -6, max: 0 }),
    field('maxChargeCurrent', { label: 'Max charge current', required: true, min: 1, max: 40 }),
  ])
    .group('Load output', [
      field('loadMode', { label: 'Load mode', required: true, min: 0, max: 3, display: 'loadModeText' }),
      field('loadOnTime', { label: 'Timer: load switches on at', min: 0, max: 1439, display: 'loadOnAt' }),
      field('loadOffTime', {
        label: 'Timer: load switches off at',
        min: 0,
        max: 86399,
        display: 'loadOffAt',
      }),
      field('lowVoltageDisconnect', { label: 'Low-voltage disconnect', required: true, min: 20, max: 26 }),
      field('lowVoltageReconnect', { label: 'Low-voltage reconnect', required: true, min: 22, max: 28 }),
    ])
    .group(
      FACTORY_GROUP,
      [
        field('pvStartOffset', { label: 'PV start offset' }),
        field('currentGain', { label: 'Current sensor gain' }),
      ],
      FACTORY_NOTE,
    );
  b.row(
    { value: 'Solar' },
    { refData: 'pvPower', append: ' W' },
    { refData: 'pvVoltage', round: 1, append: ' V' },
    { refData: 'pvCurrent', round: 1, append: ' A' },
  )
    .row(
      { value: 'Battery' },
      { refData: 'batteryVoltage', round: 2, append: ' V' },
      { refData: 'chargeCurrent', round: 1, append: ' A' },
      { refData: 'chargeStageText' },
    )
    .row({ value: 'Load' }, { refData: 'loadCurrent', round: 1, append: ' A' }, { refData: 'loadModeText' })
    .row(
      { value: 'Controller' },
      { refData: 'controllerTemp', append: ' °C' },
      { refData: 'overheating' },
      { refData: 'conversionEfficiency', prepend: 'efficiency ', append: ' %' },
    )
    .row(
      { value: 'Yield' },
      { refData: 'yieldToday', round: 2, prepend: 'today ', append: ' kWh' },
      { refData: 'yieldTotal', round: 0, prepend: 'total ', append: ' kWh' },
    );
  return b.build();
}
