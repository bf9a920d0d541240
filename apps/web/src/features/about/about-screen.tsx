import { Trans, useLingui } from '@lingui/react/macro';
import { PageTitle } from '../../components/page-title';
import { APP_NAME, APP_VERSION } from '../../config/app-info';
import './about.css';

/** Spec section 2, About: a panel titled About with the application's name and version. */
export function AboutScreen() {
  const { t } = useLingui();
  return (
    <section className="about" aria-labelledby="about-title" data-testid="about">
      <PageTitle title={t`About`} />
      <h1 id="about-title">
        <Trans>About</Trans>
      </h1>
      <dl className="about__facts">
        <div>
          <dt>
            <Trans>Application</Trans>
          </dt>
          <dd data-testid="app-name">{APP_NAME}</dd>
        </div>
        <div>
          <dt>
            <Trans>Version</Trans>
          </dt>
          <dd data-testid="app-version">{APP_VERSION}</dd>
        </div>
      </dl>
    </section>
  );
}
