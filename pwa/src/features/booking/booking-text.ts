// What the booking page and form say (docs/product/02-screens.md, "Booking page", and 08-errors.md).
export const BOOKING_TEXT = {
  loadFailed: 'Failed to load form data',
  selectDate: 'Please select an available date.',
  selectTime: 'Please select a time.',
  selectService: 'Please choose a service.',
  selectEmployee: 'Please choose a team member.',
  name: 'Please enter your full name.',
  email: 'Please enter a valid email address.',
  phone: 'Please enter your phone number.',
  slotTaken: 'Sorry, that time was just booked by someone else. Please choose another time.',
  notAccepting: 'This business is not taking online bookings right now.',
  inProgress: 'Your booking is still being processed. Please wait a moment, then try again.',
  createdLoggedIn: 'Appointment created successfully!',
} as const;
