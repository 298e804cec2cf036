import { Migration } from '@mikro-orm/migrations';

export class Migration20261202054547 extends Migration {

  override name = 'Migration20261202054547';

  override up(): void | Promise<void> {
    this.addSql(`alter table "liability" alter column "minimum_payment" type numeric using ("minimum_payment"::numeric);`);
    this.addSql(`alter table "liability" alter column "last_statement_balance" type numeric using ("last_statement_balance"::numeric);`);
    this.addSql(`alter table "liability" alter column "last_payment_amount" type numeric using ("last_payment_amount"::numeric);`);
    this.addSql(`alter table "liability" alter column "interest_rate_percentage" type numeric using ("interest_rate_percentage"::numeric);`);
    this.addSql(`alter table "liability" alter column "origination_principal" type numeric using ("origination_principal"::numeric);`);
    this.addSql(`alter table "liability" alter column "next_payment_amount" type numeric using ("next_payment_amount"::numeric);`);
    this.addSql(`alter table "liability" alter column "escrow_balance" type numeric using ("escrow_balance"::numeric);`);
    this.addSql(`alter table "liability" alter column "ytd_interest_paid" type numeric using ("ytd_interest_paid"::numeric);`);
    this.addSql(`alter table "liability" alter column "ytd_principal_paid" type numeric using ("ytd_principal_paid"::numeric);`);

    this.addSql(`alter table "security" alter column "close_price" type numeric using ("close_price"::numeric);`);

    this.addSql(`alter table "investment_transaction" alter column "quantity" type numeric using ("quantity"::numeric);`);
    this.addSql(`alter table "investment_transaction" alter column "price" type numeric using ("price"::numeric);`);
    this.addSql(`alter table "investment_transaction" alter column "fees" type numeric using ("fees"::numeric);`);
    this.addSql(`alter table "investment_transaction" alter column "amount" type numeric using ("amount"::numeric);`);

    this.addSql(`alter table "holding" alter column "quantity" type numeric using ("quantity"::numeric);`);
    this.addSql(`alter table "holding" alter column "price" type numeric using ("price"::numeric);`);
    this.addSql(`alter table "holding" alter column "value" type numeric using ("value"::numeric);`);
    this.addSql(`alter table "holding" alter column "cost_basis" type numeric using ("cost_basis"::numeric);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "holding" alter column "quantity" type numeric(38,10) using ("quantity"::numeric(38,10));`);
    this.addSql(`alter table "holding" alter column "price" type numeric(38,10) using ("price"::numeric(38,10));`);
    this.addSql(`alter table "holding" alter column "value" type numeric(19,4) using ("value"::numeric(19,4));`);
    this.addSql(`alter table "holding" alter column "cost_basis" type numeric(19,4) using ("cost_basis"::numeric(19,4));`);

    this.addSql(`alter table "investment_transaction" alter column "quantity" type numeric(38,10) using ("quantity"::numeric(38,10));`);
    this.addSql(`alter table "investment_transaction" alter column "price" type numeric(38,10) using ("price"::numeric(38,10));`);
    this.addSql(`alter table "investment_transaction" alter column "fees" type numeric(19,4) using ("fees"::numeric(19,4));`);
    this.addSql(`alter table "investment_transaction" alter column "amount" type numeric(19,4) using ("amount"::numeric(19,4));`);

    this.addSql(`alter table "liability" alter column "minimum_payment" type numeric(19,4) using ("minimum_payment"::numeric(19,4));`);
    this.addSql(`alter table "liability" alter column "last_statement_balance" type numeric(19,4) using ("last_statement_balance"::numeric(19,4));`);
    this.addSql(`alter table "liability" alter column "last_payment_amount" type numeric(19,4) using ("last_payment_amount"::numeric(19,4));`);
    this.addSql(`alter table "liability" alter column "interest_rate_percentage" type numeric(38,10) using ("interest_rate_percentage"::numeric(38,10));`);
    this.addSql(`alter table "liability" alter column "origination_principal" type numeric(19,4) using ("origination_principal"::numeric(19,4));`);
    this.addSql(`alter table "liability" alter column "next_payment_amount" type numeric(19,4) using ("next_payment_amount"::numeric(19,4));`);
    this.addSql(`alter table "liability" alter column "escrow_balance" type numeric(19,4) using ("escrow_balance"::numeric(19,4));`);
    this.addSql(`alter table "liability" alter column "ytd_interest_paid" type numeric(19,4) using ("ytd_interest_paid"::numeric(19,4));`);
    this.addSql(`alter table "liability" alter column "ytd_principal_paid" type numeric(19,4) using ("ytd_principal_paid"::numeric(19,4));`);

    this.addSql(`alter table "security" alter column "close_price" type numeric(38,10) using ("close_price"::numeric(38,10));`);
  }

}
