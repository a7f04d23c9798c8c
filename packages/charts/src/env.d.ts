// Stylesheets imported for their side effect (Highcharts' static palette CSS).
declare module '*.css';
