import type { ThirdPartyRating } from '@yield/contract';
import { ExternalLink, formatDay } from '@yield/ui';
import styles from './analysis.module.css';

export function ThirdPartyRatingsSection({ ratings }: { ratings: readonly ThirdPartyRating[] }) {
  const known = ratings.filter((r) => r.value.trim() !== '' && r.value !== 'N/A');
  return (
    <section className={styles.section} aria-labelledby="ratings-heading">
      <h2 id="ratings-heading">Third-party ratings</h2>
      {known.length === 0 ? (
        <p className={styles.statusBox}>
          None of the rating agencies we follow has rated this source yet.
        </p>
      ) : (
        <>
          <p className={styles.sectionIntro}>
            Independent ratings, with the date each was checked. Each rater uses its own scale.
          </p>
          <div className={styles.tableScroll}>
            <table className={styles.ratings}>
              <caption className="visually-hidden">Third-party ratings</caption>
              <thead>
                <tr>
                  <th scope="col">Rater</th>
                  <th scope="col">Rating</th>
                  <th scope="col">As of</th>
                </tr>
              </thead>
              <tbody>
                {known.map((rating) => (
                  <tr key={rating.provider}>
                    <th scope="row">
                      <ExternalLink href={rating.link ?? rating.providerUrl}>
                        {rating.provider}
                      </ExternalLink>
                    </th>
                    <td>{rating.value}</td>
                    <td>{rating.date ? formatDay(rating.date) : 'N/A'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
