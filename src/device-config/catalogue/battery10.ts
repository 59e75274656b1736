import type { DeviceConfig } from '../config-schema.ts';
import { FACTORY_GROUP } from '../excluded-groups.ts';
import { addIdentityDerived, addIdentityGroups, addIdentityItems, FACTORY_NOTE } from './common-sections.ts';
import { field, ProductBuilder } from './product-builder.ts';

/** Basalt BX-10 Home Battery: 10 kWh LiFePO4, 16 cells, 51.2 V nominal. */
export function battery10(): DeviceConfig {
  const b = new ProductBuilder();
  addIdentityItems(b, { firmware: [1, 9, 0], name: 'BX10', password: 'basalt' });
  b.live('packVoltage', 'u16be', 53.12, 0.01, 'V')
    .live('packCurrent', 's16be', 24.6, 0.01, 'A')
    .live('soc', 'u8', 64, 1, '%')
    .live('soh', 'u8', 98, 1, '%')
    .live('cellVoltageMax', 'u16le', 3.338, 0.001, 'V')
    .live('cellVoltageMin', 'u16le', 3.312, 0.001, 'V')
    .live('tempCellHigh', 's8', 27, 1, '°C')
    .live('tempCellLow', 's8', 24, 1, '°C')
    .live('tempMosfet', 's8', 31, 1, '°C')
    .live('cycleCount', 'u16le', 212)
    .live('remainingCapacity', 'u32le', 127.4, 0.001, 'Ah')
    .live('fullCapacity', 'u32be', 196.0, 0.001, 'Ah')
    .live('chargeEnergyTotal', 'u32le', 2140.6, 0.1, 'kWh')
    .live('balancingMask', 'u16le', 0b0000_0000_0010_0100)
    .live('alarmFlags', 'u32le', 0)
    .live('protectionState', 'u8', 0)
    .raw('chargeVoltageLimit', 'u16be', 56.8, { multiplier: 0.01, unit: 'V' })
    .raw('dischargeCutoff', 'u16be', 46.4, { multiplier: 0.01, unit: 'V' })
    .raw('maxChargeCurrent', 'u16le', 100, { multiplier: 0.1, unit: 'A' })
    .raw('maxDischargeCurrent', 'u16le', 150, { multiplier: 0.1, unit: 'A' })
    .raw('balanceStartVoltage', 'u16le', 3.4, { multiplier: 0.001, unit: 'V' })
    .raw('balanceDelta', 'u8', 15, { unit: 'mV' })
    .raw('lowTempChargeCutoff', 's8', 2, { unit: '°C' })
    .raw('highTempCutoff', 's8', 55, { unit: '°C' })
    .raw('socLowAlarm', 'u8', 15, { unit: '%' })
    .raw('canProtocol', 'u8', 1)
    .raw('parallelId', 'u8', 0)
    .raw('sleepDelay', 'u16le', 720, { unit: 'min' })
    .raw('heaterStart', 'u16be', 300, { unit: 'min' })
    .raw('fullChargeReminder', 'u32le', 72000, { unit: 's' })
    .raw('currentOffset', 's32be', -0.012, { multiplier: 0.001, unit: 'A' })
    .raw('voltageGain', 's16le', 1.002, { multiplier: 0.001 })
    .live('readingTime', 'u32le', 0);
  addIdentityDerived(b);
  b.other(
    'packPower',
    [{ type: 'cal', op: 'mul', left: { ref: 'packVoltage' }, right: { ref: 'packCurrent' }, round: 0 }],
    'W',
  )
    .other(
      'cellSpread',
      [
        { type: 'cal', op: 'sub', left: { ref: 'cellVoltageMax' }, right: { ref: 'cellVoltageMin' } },
        { type: 'cal', op: 'mul', left: { ref: '$' }, right: { num: 1000 }, round: 0 },
      ],
      'mV',
    )
    .other(
      'timeToEmpty',
      [
        { type: 'cal', op: 'div', left: { ref: 'remainingCapacity' }, right: { ref: 'packCurrent' } },
        { type: 'cal', op: 'mul', left: { ref: '$' }, right: { num: 60 }, round: 0 },
      ],
      'min',
    )
    .other('flowDirection', [
      { type: 'com', ref: 'packCurrent', op: 'ge', to: 0, outcomes: ['Charging', 'Discharging'] },
    ])
    .other('socBelowAlarm', [{ type: 'com', ref: 'soc', op: 'lt', to: { ref: 'socLowAlarm' } }])
    .other('cell3Balancing', [{ type: 'bsv', ref: 'balancingMask', bit: 2, outcomes: ['Balancing', 'Idle'] }])
    .other('overTemperatureAlarm', [{ type: 'bsv', ref: 'alarmFlags', bit: 4 }])
    .other('protectionText', [
      {
        type: 'vfa',
        ref: 'protectionState',
        list: [
          'Normal',
          'Cell over-voltage',
          'Cell under-voltage',
          'Over-current',
          'Over-temperature',
          'Under-temperature',
        ],
      },
    ])
    .other('canProtocolText', [
      { type: 'vfa', ref: 'canProtocol', list: ['Generic', 'Helios', 'Pylon', 'Victron'] },
    ])
    .other('sleepDelayText', [{ type: 'its', ref: 'sleepDelay' }])
    .other('heaterStartTime', [{ type: 'itd', ref: 'heaterStart' }])
    .other('fullChargeReminderTime', [{ type: 'tfm', ref: 'fullChargeReminder' }]);
  addIdentityGroups(b);
  b.monitoring({
    timeItem: 'readingTime',
    derived: ['packPower'],
    counters: ['chargeEnergyTotal'],
    roles: { battery: 'packPower', soc: 'soc' },
    status: [
      {
        item: 'alarmFlags',
        bits: [
          { bit: 0, text: 'Cell over-voltage', severity: 'critical' },
          { bit: 1, text: 'Cell under-voltage', severity: 'critical' },
          { bit: 2, text: 'Over-current', severity: 'warning' },
          { bit: 4, text: 'Battery over-temperature', severity: 'critical' },
        ],
      },
      {
        item: 'protectionState',
        codes: [
          { value: 1, text: 'Protection: cell over-voltage', severity: 'critical' },
          { value: 2, text: 'Protection: cell under-voltage', severity: 'critical' },
          { value: 3, text: 'Protection: over-current', severity: 'critical' },
          { value: 4, text: 'Protection: over-temperature', severity: 'critical' },
          { value: 5, text: 'Protection: under-temperature', severity: 'warning' },
        ],
      },
    ],
    thresholds: [
      {
        item: 'soc',
        below: 10,
        clearAt: 12,
        text: 'Battery state of charge below 10 %',
        severity: 'warning',
      },
      {
        item: 'tempCellHigh',
        above: 50,
        clearAt: 45,
        text: 'Cell temperature above 50 °C',
        severity: 'critical',
      },
    ],
  });
  b.group('Charging', [
    field('chargeVoltageLimit', { label: 'Charge voltage limit', required: true, min: 52, max: 58.4 }),
    field('dischargeCutoff', { label: 'Discharge cut-off voltage', required: true, min: 42, max: 50 }),
    field('maxChargeCurrent', { label: 'Max charge current', required: true, min: 0, max: 200 }),
    field('maxDischargeCurrent', { label: 'Max discharge current', required: true, min: 0, max: 200 }),
  ])
    .group('Cells and temperature', [
      field('balanceStartVoltage', { label: 'Balancing starts above', min: 3.2, max: 3.6 }),
      field('balanceDelta', { label: 'Balancing threshold', min: 5, max: 100 }),
      field('lowTempChargeCutoff', { label: 'No charging below', required: true, min: -20, max: 10 }),
      field('highTempCutoff', { label: 'Shut down above', required: true, min: 40, max: 70 }),
      field('heaterStart', {
        label: 'Heater window starts at',
        min: 0,
        max: 1439,
        display: 'heaterStartTime',
      }),
    ])
    .group('System', [
      field('socLowAlarm', { label: 'Low state-of-charge alarm', min: 5, max: 50 }),
      field('canProtocol', {
        label: 'CAN protocol',
        required: true,
        min: 0,
        max: 3,
        display: 'canProtocolText',
      }),
      field('parallelId', { label: 'Parallel pack id', min: 0, max: 15 }),
      field('sleepDelay', { label: 'Sleep after idle', min: 10, max: 2880, display: 'sleepDelayText' }),
      {
        dataId: 'fullChargeReminder',
        active: false,
        label: 'Full-charge reminder at',
        display: 'fullChargeReminderTime',
        note: 'The battery sets this itself from its charge history: it is shown, not changed.',
      },
    ])
    .group(
      FACTORY_GROUP,
      [
        field('currentOffset', { label: 'Current sensor offset' }),
        field('voltageGain', { label: 'Voltage sensor gain' }),
      ],
      FACTORY_NOTE,
    );
  b.row(
    { value: 'Battery' },
    { refData: 'soc', append: ' %' },
    { refData: 'packPower', append: ' W' },
    { refData: 'flowDirection' },
  )
    .row(
      { value: 'Pack' },
      { refData: 'packVoltage', round: 2, append: ' V' },
      { refData: 'packCurrent', round: 1, append: ' A' },
      { refData: 'remainingCapacity', round: 1, append: ' Ah' },
    )
    .row(
      { value: 'Cells' },
      { refData: 'cellVoltageMin', round: 3, prepend: 'min ', append: ' V' },
      { refData: 'cellVoltageMax', round: 3, prepend: 'max ', append: ' V' },
      { refData: 'cellSpread', prepend: 'Δ ', append: ' mV' },
    )
    .row(
      { value: 'Temperature' },
      { refData: 'tempCellLow', append: ' °C' },
      { refData: 'tempCellHigh', append: ' °C' },
      { refData: 'tempMosfet', prepend: 'MOS ', append: ' °C' },
    )
    .row(
      { value: 'Health' },
      { refData: 'soh', append: ' %' },
      { refData: 'cycleCount', append: ' cycles' },
      { refData: 'protectionText' },
    );
  return b.build();
}
