// The Directory with the two pieces it shows from other features: a person's settings editor (the
// one /settings shows) and the calendar's appointment modal for Schedule Appointment. Features never
// import each other (docs/decisions/21-layering-and-file-naming.md); the app composes them here.
import DirectoryPage, { type DirectorySlots } from '../../features/directory/directory-page.tsx';
import { UserSettingsEditor } from '../../features/settings/components/user-settings-editor.tsx';
import { AppointmentModal } from '../../features/calendar/components/appointment-modal.tsx';

const slots: DirectorySlots = {
  PersonEditor: UserSettingsEditor,
  ScheduleAppointment: ({ open, onClose, customerId }) => <AppointmentModal open={open} onClose={onClose} initial={{ customerId }} />,
};

export default function DirectoryRoute() {
  return <DirectoryPage slots={slots} />;
}
