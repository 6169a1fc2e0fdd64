import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { nextQuery, returnPathOf } from '../../../session/returnTo';
import { LIMITS, MESSAGES, SSO_MESSAGES, signUpSchema } from '@campus/contract';
import { useCampusInfo } from '../../../api/campus';
import { firstError } from '../../../ui/schemaErrors';
import { signUp } from '../../../api/accounts';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { PasswordField } from '../../../ui/PasswordField';
import { TextField } from '../../../ui/TextField';
import { toast } from '../../../ui/toast';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { CampusPicker } from '../../campuses/CampusPicker';
import { useSignUpCampus } from '../../campuses/useSignUpCampus';
import { AuthLayout } from '../components/AuthLayout';
import { EmailField } from '../components/EmailField';
import { FormAlert } from '../components/FormAlert';
import { UniversitySignIn } from '../components/UniversitySignIn';
import { signUpUniversity } from '../university';
import { emailError, focusFirstError, normalizeEmail } from '../validation';

interface Values {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}
/** `server`: the server's refusal (an address no campus lists, one already registered…). */
type Errors = Partial<Record<keyof Values | 'form' | 'server', string>>;

function validate(v: Values): Errors {
  // Spec §5: 'Please give all details' only when all four fields are empty.
  if (!v.firstName.trim() && !v.lastName.trim() && !v.email.trim() && !v.password) {
    return { form: MESSAGES.giveAllDetails };
  }
  const errors: Errors = {};
  const firstName = firstError(signUpSchema.shape.firstName, v.firstName);
  if (firstName) errors.firstName = firstName;
  const lastName = firstError(signUpSchema.shape.lastName, v.lastName);
  if (lastName) errors.lastName = lastName;
  const email = emailError(v.email);
  if (email) errors.email = email;
  const password = firstError(signUpSchema.shape.password, v.password);
  if (password) errors.password = password;
  return errors;
}

/** Spec §8: server message, else 'Sign up failed…'; no answer at all: 'SignUp Failed: Please try again Later.' */
function signUpFailure(error: unknown): string {
  if (error instanceof ApiError && !error.isNetworkError) {
    return error.serverMessage ?? (error.status >= 500 ? MESSAGES.signUpFailedLater : MESSAGES.signUpFailed);
  }
  return MESSAGES.signUpFailedLater;
}

export default function SignUpPage() {
  useDocumentTitle('Sign up');
  const navigate = useNavigate();
  const location = useLocation();
  // A shared listing's visitor goes on to it after verifying and logging in.
  const next = returnPathOf(location.state, location.search);
  const campus = useSignUpCampus();
  const campusName = campus.name ?? 'University';
  // University sign-in of the campus the form is about: the chosen one, else the visit's (§G).
  const university = signUpUniversity(campus.chosen, useCampusInfo().data);
  const ssoOnly = !!university?.ssoOnly;
  // In the form, or under the university's button where the e-mail form gives way: a student who
  // landed on another campus's page can still find their own.
  const picker = campus.showPicker && (
    <CampusPicker
      label="Your campus"
      campuses={campus.campuses}
      value={campus.chosen}
      onChange={campus.choose}
      hint={
        campus.chosen
          ? 'Not your campus? Search by name or e-mail domain.'
          : 'Search by name or e-mail domain.'
      }
    />
  );
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>({ firstName: '', lastName: '', email: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);

  const set = (key: keyof Values) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key] || errors.form || errors.server)
      setErrors((prev) => ({ ...prev, [key]: undefined, form: undefined, server: undefined }));
  };

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (submitting) return;
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError(formRef.current);
      return;
    }
    const email = normalizeEmail(values.email);
    setSubmitting(true);
    const id = toast.loading(MESSAGES.creatingUser);
    try {
      await signUp({
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        email,
        password: values.password,
      });
      toast.success(MESSAGES.sendingCode, { id });
      navigate(`/verify${nextQuery(next)}`, { state: { email } });
    } catch (error) {
      const message = signUpFailure(error);
      toast.error(message, { id });
      // The server's reason stays in the form too (a toast is gone in 3 s): e.g. an address of a
      // campus not on Campus Market yet, with the addresses that are.
      if (error instanceof ApiError && error.serverMessage && error.status < 500) {
        setErrors({ server: error.serverMessage });
        focusFirstError(formRef.current);
      }
      setSubmitting(false);
    }
  }

  return (
    <AuthLayout
      title="Create your account"
      description={<>Join the {campus.name ?? 'campus'} marketplace. It takes less than a minute.</>}
      footer={
        <>
          Already have an account?{' '}
          <Link
            to={`/login${nextQuery(next)}`}
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Log in
          </Link>
        </>
      }
    >
      {/* The university's button, once: above the e-mail form, or alone where the campus signs
          students up only through its university (the e-mail form then gives way). */}
      <div className={ssoOnly ? 'space-y-5' : 'mb-5'}>
        {university?.ssoOnly && (
          <FormAlert tone="info">
            <p>{SSO_MESSAGES.signUpSsoOnly(university.name)}</p>
          </FormAlert>
        )}
        <UniversitySignIn campus={university} next={next} divider={!ssoOnly} />
        {ssoOnly && picker}
      </div>
      {!ssoOnly && (
        <form ref={formRef} onSubmit={onSubmit} noValidate className="space-y-5">
          {errors.form && <FormAlert>{errors.form}</FormAlert>}
          {picker}
          <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
            <TextField
              label="First name"
              name="firstName"
              autoComplete="given-name"
              value={values.firstName}
              onChange={set('firstName')}
              error={errors.firstName}
              maxLength={LIMITS.nameMax}
            />
            <TextField
              label="Last name"
              name="lastName"
              autoComplete="family-name"
              value={values.lastName}
              onChange={set('lastName')}
              error={errors.lastName}
              maxLength={LIMITS.nameMax}
            />
          </div>
          <EmailField
            label={`${campusName} email`}
            placeholder={`${campusName} email`}
            value={values.email}
            onChange={set('email')}
            onBlur={(e) => campus.followEmail(e.target.value)}
            error={errors.email}
            hint={campus.emailHint}
          />
          <PasswordField
            label="Strong password"
            name="password"
            autoComplete="new-password"
            placeholder="Strong password"
            value={values.password}
            onChange={set('password')}
            error={errors.password}
            hint="At least 8 characters. A short sentence is easy to remember and hard to guess."
            maxLength={LIMITS.passwordMax}
          />
          {errors.server && <FormAlert>{errors.server}</FormAlert>}
          <Button type="submit" size="lg" fullWidth loading={submitting}>
            Get on Board!
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
