/** The `users` table: one account per email address (SPEC.md §7 sign-up calls). */

export type RegistrationSource = 'email' | 'google';

export interface NewUser {
  id: string;
  email: string;
  name: string;
  userUuid: string;
  landingType: string;
  registrationSource: RegistrationSource;
  googleSubject: string | null;
  createdAt: string;
  /** A quiz's answers the sign-up carried (shared/api/contract.ts QuizAnswers), if any. */
  quizAnswers?: Readonly<Record<string, unknown>>;
}

export interface StoredUser {
  id: string;
  google_subject: string | null;
}

/** Addresses are one account whatever their case: 'Ann@X.com' is taken by 'ann@x.com'. */
export function emailKeyOf(email: string): string {
  return email.trim().toLowerCase();
}

/** A statement, so sign-up can write the user and its tokens in one batch (one transaction). */
export function insertUserStatement(db: D1Database, user: NewUser): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO users (id, email, email_key, name, user_uuid, landing_type, registration_source,
         google_subject, created_at, quiz_answers)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      user.id,
      user.email,
      emailKeyOf(user.email),
      user.name,
      user.userUuid,
      user.landingType,
      user.registrationSource,
      user.googleSubject,
      user.createdAt,
      user.quizAnswers ? JSON.stringify(user.quizAnswers) : null,
    );
}

/**
 * True when a write failed because the address already has an account. The unique index decides,
 * not an earlier SELECT, so two sign-ups racing with one address cannot both succeed.
 */
export function isEmailTakenError(error: unknown): boolean {
  return (
    error instanceof Error && error.message.includes('UNIQUE constraint failed: users.email_key')
  );
}

export function findUserByEmail(db: D1Database, email: string): Promise<StoredUser | null> {
  return db
    .prepare('SELECT id, google_subject FROM users WHERE email_key = ?')
    .bind(emailKeyOf(email))
    .first<StoredUser>();
}

export function findUserByGoogleSubject(
  db: D1Database,
  subject: string,
): Promise<StoredUser | null> {
  return db
    .prepare('SELECT id, google_subject FROM users WHERE google_subject = ?')
    .bind(subject)
    .first<StoredUser>();
}

/** Links a Google account to an email account that has none yet. */
export function linkGoogleSubjectStatement(
  db: D1Database,
  userId: string,
  subject: string,
): D1PreparedStatement {
  return db
    .prepare('UPDATE users SET google_subject = ? WHERE id = ? AND google_subject IS NULL')
    .bind(subject, userId);
}
