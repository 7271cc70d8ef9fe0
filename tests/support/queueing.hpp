#pragma once
// Test-only: the M/G/1 mean response time (Pollaczek-Khinchine) from the service time's first two
// moments, W = E[S] + lambda E[S^2] / (2 (1 - rho)) with rho = lambda E[S] < 1.

namespace fcal::test {

inline double pollaczek_khinchine_response(double mean_service, double second_moment, double lambda)
{
    const double rho = lambda * mean_service;
    return mean_service + lambda * second_moment / (2 * (1 - rho));
}

}  // namespace fcal::test
