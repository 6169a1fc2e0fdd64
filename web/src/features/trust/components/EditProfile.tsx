import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  isAcceptedPhoto,
  PHOTO_ACCEPT,
  PHOTO_MESSAGES,
  TRUST_LIMITS,
  TRUST_MESSAGES,
  type Profile,
} from '@campus/contract';
import { ApiError, serverMessageOf } from '../../../api/client';
import { trustKeys, updateBio, uploadAvatar } from '../../../api/trust';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ImageIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';
import { canOpenPhoto, preparePhoto } from '../../listings/compressPhoto';

/** Bio and photo of the caller's own profile (PATCH /users/me, POST /users/me/avatar). */
export function EditProfile({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const bioId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [bio, setBio] = useState(profile.bio);
  const [bioError, setBioError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);

  const saved = (next: Profile) => queryClient.setQueryData(trustKeys.profile(next.id), next);

  async function onSave(e: FormEvent) {
    e.preventDefault();
    if (bio.trim().length > TRUST_LIMITS.bioMax) {
      setBioError(TRUST_MESSAGES.bioTooLong);
      return;
    }
    setSaving(true);
    try {
      saved(await updateBio(bio));
      toast.success('Bio saved');
    } catch (err) {
      setBioError(serverMessageOf(err) ?? 'Could not save your bio. Please try again.');
    } finally {
      setSaving(false);
    }
  }

  async function onPhoto(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!isAcceptedPhoto(file)) {
      toast.error(PHOTO_MESSAGES.typeNotAccepted);
      return;
    }
    if (!(await canOpenPhoto(file))) {
      toast.error(PHOTO_MESSAGES.convertFailed(file.name));
      return;
    }
    setUploading(true);
    try {
      saved(await uploadAvatar(await preparePhoto(file)));
      toast.success('Profile photo updated');
    } catch (err) {
      const reason = serverMessageOf(err) ?? (err instanceof ApiError ? null : (err as Error).message);
      toast.error(reason || 'Could not upload the photo. Please try again.');
    } finally {
      setUploading(false);
    }
  }

  return (
    <Card as="section" padding="md" aria-labelledby={`${bioId}-heading`}>
      <h2 id={`${bioId}-heading`} className="text-lg font-bold text-slate-900">
        Edit your profile
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Other students see your photo, name and bio — never your e-mail.
      </p>
      <div className="mt-4">
        <input
          ref={fileRef}
          type="file"
          accept={PHOTO_ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => void onPhoto(e)}
          data-testid="avatar-input"
        />
        <Button
          variant="secondary"
          leadingIcon={<ImageIcon size={18} />}
          loading={uploading}
          onClick={() => fileRef.current?.click()}
        >
          {profile.avatarUrl ? 'Change photo' : 'Add a photo'}
        </Button>
      </div>
      <form onSubmit={(e) => void onSave(e)} noValidate className="mt-5 space-y-2">
        <label htmlFor={bioId} className="block text-sm font-medium text-slate-800">
          Bio
        </label>
        <textarea
          id={bioId}
          value={bio}
          rows={3}
          maxLength={TRUST_LIMITS.bioMax}
          aria-invalid={bioError ? true : undefined}
          aria-describedby={`${bioId}-count${bioError ? ` ${bioId}-error` : ''}`}
          onChange={(e) => {
            setBio(e.target.value);
            setBioError(null);
          }}
          placeholder="Major, year, what you usually sell…"
          className="block w-full rounded-xl border border-slate-300 px-3.5 py-2.5 text-base shadow-xs placeholder:text-slate-500 focus:border-brand-600 focus:ring-4 focus:ring-brand-100 focus:outline-none sm:text-sm"
        />
        <div className="flex items-start justify-between gap-3">
          <p id={`${bioId}-error`} className="text-sm font-medium text-red-700">
            {bioError}
          </p>
          <p id={`${bioId}-count`} className="shrink-0 text-xs text-slate-600">
            {bio.length}/{TRUST_LIMITS.bioMax}
          </p>
        </div>
        <Button type="submit" loading={saving} disabled={bio.trim() === profile.bio}>
          Save bio
        </Button>
      </form>
    </Card>
  );
}
