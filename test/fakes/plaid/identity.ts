import { EmailTypeEnum, PhoneNumberTypeEnum, type Owner } from 'plaid';

/**
 * The owner Plaid's Sandbox reports on every account of every Item (/identity/get), as its
 * documentation shows it: one person, two names, several emails, phone numbers and addresses. A test
 * replaces an account's owners with `setOwners`.
 */
export function sandboxOwners(): Owner[] {
  return [
    {
      names: ['Alberta Bobbeth Charleson'],
      phone_numbers: [
        { data: '2025550123', primary: false, type: PhoneNumberTypeEnum.Home },
        { data: '1112224444', primary: false, type: PhoneNumberTypeEnum.Work },
        { data: '1112225555', primary: false, type: PhoneNumberTypeEnum.Mobile },
      ],
      emails: [
        { data: 'accountholder0@example.com', primary: true, type: EmailTypeEnum.Primary },
        { data: 'accountholder1@example.com', primary: false, type: EmailTypeEnum.Secondary },
        { data: 'extraordinarily.long.email.username.123456@reallylonghostname.com', primary: false, type: EmailTypeEnum.Other },
      ],
      addresses: [
        { data: { city: 'Malakoff', country: 'US', postal_code: '14236', region: 'NY', street: '2992 Cameron Road' }, primary: true },
        { data: { city: 'San Matias', country: 'US', postal_code: '93405-2255', region: 'CA', street: '2493 Leisure Lane' }, primary: false },
      ],
    },
  ];
}
