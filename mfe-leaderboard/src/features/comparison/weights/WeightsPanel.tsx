import { useId, useState, type KeyboardEvent } from 'react';
import { WEIGHT_MAX_PCT, WEIGHT_MIN_PCT, WEIGHT_STEP_PCT } from '@yield/contract/constants';
import { RA30_CHARGES } from '@yield/ui';
import { RISK_CHARGE_KEYS, type ChargeWeights, type RiskChargeKey } from './model.ts';
import styles from './weights.module.css';

export interface WeightsPanelProps {
  weights: ChargeWeights;
  /** Every weight at 100%: the tables show the published ranking. */
  published: boolean;
  onChange: (key: RiskChargeKey, value: number) => void;
  onReset: () => void;
  /** Said politely by screen readers after each re-ranking. */
  announcement: string;
  /** Open on arrival (a shared link with weights). */
  defaultOpen?: boolean;
}

/** Keys a slider answers, as every browser's range input does (handled here, the same everywhere). */
const KEY_STEPS: Record<string, (value: number) => number> = {
  ArrowRight: (v) => v + WEIGHT_STEP_PCT,
  ArrowUp: (v) => v + WEIGHT_STEP_PCT,
  ArrowLeft: (v) => v - WEIGHT_STEP_PCT,
  ArrowDown: (v) => v - WEIGHT_STEP_PCT,
  PageUp: (v) => v + 5 * WEIGHT_STEP_PCT,
  PageDown: (v) => v - 5 * WEIGHT_STEP_PCT,
  Home: () => WEIGHT_MIN_PCT,
  End: () => WEIGHT_MAX_PCT,
};

function WeightSlider({
  chargeKey,
  value,
  onChange,
}: {
  chargeKey: RiskChargeKey;
  value: number;
  onChange: (key: RiskChargeKey, value: number) => void;
}) {
  const id = useId();
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const step = KEY_STEPS[event.key];
    if (!step) return;
    event.preventDefault();
    const next = Math.min(WEIGHT_MAX_PCT, Math.max(WEIGHT_MIN_PCT, step(value)));
    if (next !== value) onChange(chargeKey, next);
  };
  return (
    <li className={styles.weight}>
      <label
        htmlFor={id}
        className={styles.weightLabel}
        title={RA30_CHARGES[chargeKey].explanation}
      >
        {RA30_CHARGES[chargeKey].label}
      </label>
      <span className={styles.weightControl}>
        <input
          id={id}
          type="range"
          className={styles.slider}
          min={WEIGHT_MIN_PCT}
          max={WEIGHT_MAX_PCT}
          step={WEIGHT_STEP_PCT}
          value={value}
          aria-valuetext={`${value}% of the published charge`}
          onChange={(event) => onChange(chargeKey, event.currentTarget.valueAsNumber)}
          onKeyDown={onKeyDown}
          data-testid={`weight-${chargeKey}`}
        />
        <output htmlFor={id} className={value === 100 ? styles.value : styles.valueChanged}>
          {value}%
        </output>
      </span>
    </li>
  );
}

/**
 * "Your weights" (Pro view): a slider per charge of ra30-v1, 0-200%, the tables re-ranking at
 * once; a reset to the published ranking; a polite live region saying how the ranking changed.
 */
export function WeightsPanel({
  weights,
  published,
  onChange,
  onReset,
  announcement,
  defaultOpen = false,
}: WeightsPanelProps) {
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  return (
    <section
      className={published ? styles.panel : styles.panelCustom}
      aria-label="Your weights"
      data-testid="weights-panel"
    >
      <div className={styles.head}>
        <button
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden="true" className={styles.chevron}>
            {open ? '▾' : '▸'}
          </span>
          Your weights
        </button>
        {published ? (
          <p className={styles.status}>Published ranking (method ra30-v1).</p>
        ) : (
          <p className={styles.ownNote} data-testid="own-ranking-note">
            <strong>Your own ranking, not the published method:</strong> the risk-adjusted APR below
            uses your weights.
          </p>
        )}
        <button
          type="button"
          className={`btn btn-secondary ${styles.reset}`}
          onClick={onReset}
          disabled={published}
        >
          Reset to the published ranking
        </button>
      </div>
      <div id={bodyId} hidden={!open} className={styles.body}>
        <p className={styles.intro}>
          Scale each risk charge from 0% to 200% (100% is the published method). Your risk-adjusted
          APR is the 30-day APR minus each charge times its weight, and the tables rank by it. GREAT
          and the charts stay those of the published method.
        </p>
        <ul className={styles.weights}>
          {RISK_CHARGE_KEYS.map((key) => (
            <WeightSlider key={key} chargeKey={key} value={weights[key]} onChange={onChange} />
          ))}
        </ul>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="weights-live">
        {announcement}
      </p>
    </section>
  );
}
