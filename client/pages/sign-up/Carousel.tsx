import { useId } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useCarousel } from './use-carousel';

/** The three steps of a trial the carousel tells (spec 9: 3 steps), by their texts' keys. */
const TRIAL_STEPS = ['signUp', 'useCase', 'instance'] as const;

const icon = { width: 16, height: 16, viewBox: '0 0 16 16', 'aria-hidden': true, focusable: false } as const;
const PauseIcon = () => (
  <svg {...icon}>
    <rect x="3" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
    <rect x="9.5" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
  </svg>
);
const PlayIcon = () => (
  <svg {...icon}>
    <path d="M4 2.5v11a.8.8 0 0 0 1.2.7l9-5.5a.8.8 0 0 0 0-1.4l-9-5.5A.8.8 0 0 0 4 2.5z" fill="currentColor" />
  </svg>
);
const Chevron = ({ back }: { back?: boolean }) => (
  <svg {...icon}>
    <path
      d={back ? 'M10 3 5 8l5 5' : 'm6 3 5 5-5 5'}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

/**
 * The sign-up page's left panel (spec 2 and 9): three steps of the trial, moving on every 3000 ms
 * and wrapping around, with previous, next and one button per slide. It follows the WAI-ARIA
 * carousel pattern: a region described as a carousel, each slide a group labelled "1 of 3"; the
 * pause/play control comes first; hovering or focusing it holds the slides; the slides are a live
 * region only while they do not move by themselves, so a screen reader is not interrupted.
 */
export function TrialCarousel() {
  const { t } = useTranslation();
  const carousel = useCarousel(TRIAL_STEPS.length);
  const slidesId = useId();
  const total = TRIAL_STEPS.length;
  return (
    <section
      className="p-carousel"
      aria-roledescription={t('signUp.carousel.carousel')}
      aria-label={t('signUp.carousel.label')}
      data-testid="signup-carousel"
      data-rotating={carousel.rotating || undefined}
      {...carousel.holdHandlers}
    >
      <div className="p-carousel-controls">
        <button
          type="button"
          className="p-icon-button"
          onClick={carousel.togglePlaying}
          aria-label={carousel.playing ? t('signUp.carousel.pause') : t('signUp.carousel.play')}
          title={carousel.playing ? t('signUp.carousel.pause') : t('signUp.carousel.play')}
          data-testid="carousel-rotation"
        >
          {carousel.playing ? <PauseIcon /> : <PlayIcon />}
        </button>
        <span className="p-carousel-spacer" />
        <button
          type="button"
          className="p-icon-button"
          onClick={carousel.previous}
          aria-controls={slidesId}
          aria-label={t('signUp.carousel.previous')}
          title={t('signUp.carousel.previous')}
          data-testid="carousel-previous"
        >
          <Chevron back />
        </button>
        <button
          type="button"
          className="p-icon-button"
          onClick={carousel.next}
          aria-controls={slidesId}
          aria-label={t('signUp.carousel.next')}
          title={t('signUp.carousel.next')}
          data-testid="carousel-next"
        >
          <Chevron />
        </button>
      </div>
      <div id={slidesId} className="p-carousel-slides" aria-live={carousel.rotating ? 'off' : 'polite'}>
        {TRIAL_STEPS.map((step, index) => (
          <div
            key={step}
            role="group"
            aria-roledescription={t('signUp.carousel.slide')}
            aria-label={t('signUp.carousel.slideLabel', { current: index + 1, total })}
            hidden={index !== carousel.index}
            className="p-carousel-slide"
            data-testid={`carousel-slide-${index + 1}`}
          >
            <span className="p-carousel-number" aria-hidden="true">
              {index + 1}
            </span>
            <h2 className="p-carousel-title">{t(`signUp.carousel.${step}.title`)}</h2>
            <p className="p-carousel-text">{t(`signUp.carousel.${step}.text`)}</p>
          </div>
        ))}
      </div>
      <div className="p-carousel-picker" role="group" aria-label={t('signUp.carousel.picker')}>
        {TRIAL_STEPS.map((step, index) => (
          <button
            key={step}
            type="button"
            className="p-carousel-dot"
            onClick={() => carousel.goTo(index)}
            aria-controls={slidesId}
            aria-label={t('signUp.carousel.show', { current: index + 1, total })}
            aria-current={index === carousel.index ? 'true' : undefined}
            data-testid={`carousel-dot-${index + 1}`}
          >
            <span aria-hidden="true" />
          </button>
        ))}
      </div>
    </section>
  );
}
