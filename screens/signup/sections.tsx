import type { SectionKind } from '../kit/composition';
import { LocatedBanner } from '../kit/LocatedBanner';
import { supportSection } from '../kit/SupportLinks';
import { Testimonials } from '../kit/Testimonials';
import { trustSection } from '../kit/TrustLabels';
import { Island } from '../layout/Island';
import { GoogleSection, signupFormProps } from './SignupPieces';
import { SIGNUP_SECTION_SPECS, type SignupSection } from './section-specs';

/** The signup sections with what draws each (./section-specs.ts says what each is). */
export const SIGNUP_SECTIONS: Record<SignupSection, SectionKind> = {
  located: { ...SIGNUP_SECTION_SPECS.located, render: ({ t }) => <LocatedBanner t={t} /> },
  heading: {
    ...SIGNUP_SECTION_SPECS.heading,
    render: ({ screen, t }) => {
      const testimonials = screen === 'signup_testim';
      return (
        <>
          <h1 id="screen-title">{t(testimonials ? 'signup.title_testim' : 'signup.title')}</h1>
          <p className="lead">{t(testimonials ? 'signup.lead_testim' : 'signup.lead')}</p>
        </>
      );
    },
  },
  email_form: {
    ...SIGNUP_SECTION_SPECS.email_form,
    render: (props) => <Island name="SignupForm" props={signupFormProps(props)} />,
  },
  google: { ...SIGNUP_SECTION_SPECS.google, render: (props) => <GoogleSection {...props} /> },
  privacy: {
    ...SIGNUP_SECTION_SPECS.privacy,
    render: ({ t }) => <p className="signup__privacy">{t('signup.privacy_note')}</p>,
  },
  testimonials: {
    ...SIGNUP_SECTION_SPECS.testimonials,
    render: ({ t }) => <Testimonials t={t} />,
  },
  trust: trustSection(SIGNUP_SECTION_SPECS.trust),
  support: supportSection(SIGNUP_SECTION_SPECS.support),
};
