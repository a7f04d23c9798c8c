import {
  describeIncidents,
  INCIDENT_LINE_CLASS,
  incidentPlotLines,
  incidentsWithin,
  incidentTimestamp,
} from './incidents.ts';

const DAY = 86_400_000;

describe('incidentPlotLines', () => {
  it('marks each incident on the UTC midnight of its day, labelled with what happened', () => {
    const lines = incidentPlotLines(
      [{ date: '2026-03-22', kind: 'exploit', source: 'Resolv - USR Staking' }],
      { color: '#dc2626' },
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      value: Date.UTC(2026, 2, 22),
      color: '#dc2626',
      className: INCIDENT_LINE_CLASS,
      label: { text: '⚠ exploit' },
    });
  });

  it('draws one line per day, oldest first, joining the incidents of one day', () => {
    const lines = incidentPlotLines(
      [
        { date: '2026-05-02', kind: 'depeg' },
        { date: '2026-01-10', kind: 'exploit', source: 'A' },
        { date: '2026-05-02', kind: 'pause', source: 'B' },
      ],
      { color: 'red' },
    );
    expect(lines.map((line) => line.value)).toEqual([Date.UTC(2026, 0, 10), Date.UTC(2026, 4, 2)]);
    expect(lines[1]!.label!.text).toBe('⚠ depeg, pause');
  });

  it('gives nothing for no incidents and skips a malformed day', () => {
    expect(incidentPlotLines([], { color: 'red' })).toEqual([]);
    expect(incidentPlotLines([{ date: 'soon', kind: 'x' }], { color: 'red' })).toEqual([]);
  });
});

describe('describeIncidents', () => {
  it('names each incident, its source and its day', () => {
    const text = describeIncidents(
      [
        { date: '2026-03-22', kind: 'exploit', source: 'Resolv' },
        { date: '2026-05-02', kind: 'depeg' },
      ],
      (date) => `day ${date}`,
    );
    expect(text).toBe('Resolv: exploit on day 2026-03-22; depeg on day 2026-05-02');
  });
});

describe('incidentsWithin', () => {
  const incidents = [
    { date: '2026-03-22', kind: 'exploit' },
    { date: '2026-11-01', kind: 'depeg' },
  ];
  it('keeps the incidents whose day is on the chart, ends included', () => {
    const from = incidentTimestamp('2026-11-01');
    expect(incidentsWithin(incidents, from, from + 20 * DAY)).toEqual([incidents[1]]);
    expect(incidentsWithin(incidents, incidentTimestamp('2026-03-22'), from)).toEqual(incidents);
  });
  it('keeps none while the chart has no points', () => {
    expect(incidentsWithin(incidents, undefined, undefined)).toEqual([]);
  });
});
